import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/agentctl';
import type { AgentCtlDefinition } from './generated/kandev/agentctl/v1/AgentCtl';

/** Must match the flags of scripts/gen-proto.mjs, so runtime objects have the generated shapes. */
export const PROTO_LOAD_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

export const AGENTCTL_PROTO_FILE = 'kandev/agentctl/v1/agentctl.proto';

// `proto/` sits next to `src/` and `dist/` (copied there by scripts/sync-proto.mjs); the repository
// root's proto/ is the fallback for tests run straight from a checkout.
function protoIncludeDir(): string {
  const candidates = [join(__dirname, '..', 'proto'), join(__dirname, '..', '..', '..', 'proto')];
  const found = candidates.find((dir) => existsSync(join(dir, AGENTCTL_PROTO_FILE)));
  if (found === undefined) throw new Error(`cannot find ${AGENTCTL_PROTO_FILE} in ${candidates.join(' or ')}`);
  return found;
}

let cached: ProtoGrpcType | undefined;

/** The loaded `kandev.agentctl.v1` package: the one place the .proto is read at run time. */
export function loadAgentctlProto(): ProtoGrpcType {
  if (cached === undefined) {
    const definition = protoLoader.loadSync(AGENTCTL_PROTO_FILE, {
      ...PROTO_LOAD_OPTIONS,
      includeDirs: [protoIncludeDir()],
    });
    cached = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
  }
  return cached;
}

export function agentctlServiceDefinition(): AgentCtlDefinition {
  return loadAgentctlProto().kandev.agentctl.v1.AgentCtl.service;
}

/** The fully qualified service name, as used by the standard health service. */
export const AGENTCTL_SERVICE_NAME = 'kandev.agentctl.v1.AgentCtl';
