import { type Server, type ServerDuplexStream, type UntypedServiceImplementation, status } from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { agentctlPackageDefinition } from '@kandev/protocol';
import { isAuthorizedCall } from './control-auth';

type ReflectionHandler = (call: ServerDuplexStream<unknown, unknown>) => void;

/**
 * Each reflection handler behind the control token: the service describes the whole AgentCtl API, so
 * it is refused (UNAUTHENTICATED, before any request is read) like every AgentCtl call.
 */
function guarded(implementation: UntypedServiceImplementation, controlTokenHash: string) {
  const out: UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(implementation)) {
    const inner = handler as ReflectionHandler;
    const wrapped: ReflectionHandler = (call) => {
      if (isAuthorizedCall(call.metadata, controlTokenHash)) return inner(call);
      call.emit('error', { code: status.UNAUTHENTICATED, details: 'missing or invalid control token' });
    };
    out[name] = wrapped;
  }
  return out;
}

/**
 * gRPC server reflection (v1 and v1alpha) for the AgentCtl proto, so grpcurl works without the .proto
 * file; every reflection call needs `authorization: Bearer <control token>`.
 */
export function addGuardedReflection(server: Server, controlTokenHash: string): void {
  new ReflectionService(agentctlPackageDefinition()).addToServer({
    addService: (service, implementation) => server.addService(service, guarded(implementation, controlTokenHash)),
  });
}
