// An agentctl dialled over TLS by IP address, without a server name: the channel connects on every Node
// line (Node 26 refuses an IP as the TLS server name, which grpc-js would send) and still checks the
// certificate against the dialled IP. The test PKI's server certificate names 127.0.0.1, not 127.0.0.2.
import * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { probeHealth } from '../../../packages/protocol/src/health';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { createTestPki, type TestPki } from '../../helpers/tls-certs';

/** grpc.health.v1.Health/Check answering SERVING to any request, without the health package. */
const CHECK: grpc.MethodDefinition<Buffer, Buffer> = {
  path: '/grpc.health.v1.Health/Check',
  requestStream: false,
  responseStream: false,
  requestSerialize: (value) => value,
  requestDeserialize: (bytes) => bytes,
  responseSerialize: () => Buffer.from([0x08, 0x01]), // HealthCheckResponse { status: SERVING }
  responseDeserialize: (bytes) => bytes,
};

async function tlsHealthServer(cleanup: Cleanup, pki: TestPki, host: string): Promise<string> {
  const server = new grpc.Server();
  server.addService(
    { Check: CHECK },
    { Check: (_call: unknown, callback: grpc.sendUnaryData<Buffer>) => callback(null, Buffer.alloc(0)) },
  );
  const credentials = grpc.ServerCredentials.createSsl(null, [
    { cert_chain: readFileSync(pki.serverCert), private_key: readFileSync(pki.serverKey) },
  ]);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:0`, credentials, (error, bound) => (error === null ? resolve(bound) : reject(error))),
  );
  cleanup.defer(() => new Promise<void>((resolve) => server.tryShutdown(() => resolve())));
  return `${host}:${port}`;
}

describe('TLS to an agentctl dialled by IP address', () => {
  const cleanup = useCleanup();

  test('an IP its certificate names: connected and served', async () => {
    const pki = await createTestPki(cleanup);
    const address = await tlsHealthServer(cleanup, pki, '127.0.0.1');
    const tls = { ca: readFileSync(pki.caCert) };
    expect(await probeHealth(address, '', { timeoutMs: 10_000, tls })).toEqual({ status: 'SERVING' });
  });

  test('an IP it does not name: refused, the certificate checked against that IP', async () => {
    const pki = await createTestPki(cleanup);
    const address = await tlsHealthServer(cleanup, pki, '127.0.0.2');
    const tls = { ca: readFileSync(pki.caCert) };
    expect(await probeHealth(address, '', { timeoutMs: 10_000, tls })).toEqual({
      error: expect.stringMatching(/IP: 127\.0\.0\.2 is not in the cert's list/),
    });
  });
});
