import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { refusedTextIn } from './well-formed-text';
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

let cachedDefinition: protoLoader.PackageDefinition | undefined;
let cached: ProtoGrpcType | undefined;

/** The parsed .proto (with its file descriptors): the one place the .proto is read at run time. */
export function agentctlPackageDefinition(): protoLoader.PackageDefinition {
  cachedDefinition ??= protoLoader.loadSync(AGENTCTL_PROTO_FILE, {
    ...PROTO_LOAD_OPTIONS,
    includeDirs: [protoIncludeDir()],
  });
  return cachedDefinition;
}

/** The loaded `kandev.agentctl.v1` package. */
export function loadAgentctlProto(): ProtoGrpcType {
  cached ??= grpc.loadPackageDefinition(agentctlPackageDefinition()) as unknown as ProtoGrpcType;
  return cached;
}

export function agentctlServiceDefinition(): AgentCtlDefinition {
  return loadAgentctlProto().kandev.agentctl.v1.AgentCtl.service;
}

/** The fully qualified service name, as used by the standard health service. */
export const AGENTCTL_SERVICE_NAME = 'kandev.agentctl.v1.AgentCtl';

const UNDECODABLE = Symbol('undecodable message');

/** What a server handler receives in place of a message whose bytes did not decode. */
export interface UndecodableMessage {
  readonly [UNDECODABLE]: true;
  /** The method's full path, for the refusal's message. */
  readonly path: string;
  /** Why it was refused when the bytes decoded but hold refused text (well-formed-text.ts). */
  readonly reason?: string;
}

export function isUndecodable(message: unknown): message is UndecodableMessage {
  return typeof message === 'object' && message !== null && UNDECODABLE in message;
}

/** The refusal's text for an UndecodableMessage: what was wrong, when known. */
export function undecodableDetails(message: UndecodableMessage, what: string): string {
  return message.reason === undefined ? `${what} could not be decoded` : `${what} was refused: ${message.reason}`;
}

/**
 * The AgentCtl service for a server. grpc-js answers INTERNAL when a request's bytes do not decode; a
 * broken client is not a server fault, so here such a message reaches the handler as an
 * UndecodableMessage, which the handlers refuse with INVALID_ARGUMENT. So is a message holding NUL or
 * a lone surrogate in any string (protobuf's UTF-8 decoder lets an encoded surrogate through): the one
 * place every request string passes.
 */
export function agentctlServerDefinition(): AgentCtlDefinition {
  const service = agentctlServiceDefinition();
  const tolerant = Object.entries(service).map(([name, method]) => {
    const decode = method.requestDeserialize as (bytes: Buffer) => unknown;
    const requestDeserialize = (bytes: Buffer): unknown => {
      let decoded: unknown;
      try {
        // A plain Uint8Array view, not the Buffer: protobufjs then reads strings with its own UTF-8
        // decoder, which keeps an encoded surrogate (ED A0 80) as the lone surrogate it is, where
        // Buffer's decoder would turn it silently into U+FFFD. Refused below instead of altered.
        decoded = decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Buffer);
      } catch {
        const undecodable: UndecodableMessage = { [UNDECODABLE]: true, path: method.path };
        return undecodable;
      }
      const reason = refusedTextIn(decoded);
      if (reason === undefined) return decoded;
      const refused: UndecodableMessage = { [UNDECODABLE]: true, path: method.path, reason };
      return refused;
    };
    return [name, { ...method, requestDeserialize }];
  });
  return Object.fromEntries(tolerant) as AgentCtlDefinition;
}
