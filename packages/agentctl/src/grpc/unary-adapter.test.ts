import { Metadata, type ServerUnaryCall, status } from '@grpc/grpc-js';
import { AppError, controlTokenMetadata, sha256Hex } from '@kandev/protocol';
import { silentLogger } from '../testing/silent-logger';
import { createUnaryAdapter } from './unary-adapter';

const TOKEN = 'control-token-0123456789abcdef0123456789';
const unary = createUnaryAdapter({ controlTokenHash: sha256Hex(TOKEN), log: silentLogger });

/** Invokes a wrapped handler as grpc-js would and resolves what it passed to the callback. */
function invoke<Res>(handler: ReturnType<typeof unary<string, Res>>, metadata: Metadata) {
  const call = { request: 'req', metadata, getPeer: () => 'test-peer' } as unknown as ServerUnaryCall<string, Res>;
  return new Promise<{ error: unknown; value: unknown }>((resolve) => {
    handler(call, (error, value) => resolve({ error, value }));
  });
}

describe('createUnaryAdapter', () => {
  test('no or wrong token: UNAUTHENTICATED and the handler never runs', async () => {
    const run = jest.fn(() => 'ran');
    for (const metadata of [new Metadata(), controlTokenMetadata('wrong-token-0123456789abcdef0123456789')]) {
      const { error } = await invoke(unary('Test', run), metadata);
      expect(error).toMatchObject({ code: status.UNAUTHENTICATED });
    }
    expect(run).not.toHaveBeenCalled();
  });

  test('authorised: the handler result is the reply', async () => {
    const { error, value } = await invoke(
      unary('Test', (request: string) => `${request}-ok`),
      controlTokenMetadata(TOKEN),
    );
    expect({ error, value }).toEqual({ error: null, value: 'req-ok' });
  });

  test.each<[string, () => never, { code: status; details: string }]>([
    [
      'AppError maps through GRPC_STATUS',
      () => {
        throw new AppError('failed_precondition', 'revision 2 is older');
      },
      { code: status.FAILED_PRECONDITION, details: 'revision 2 is older' },
    ],
    [
      'anything else is INTERNAL without details',
      () => {
        throw new TypeError('secret internals');
      },
      { code: status.INTERNAL, details: 'internal error' },
    ],
  ])('%s', async (_name, run, expected) => {
    const { error } = await invoke(unary('Test', run), controlTokenMetadata(TOKEN));
    expect(error).toEqual(expected);
  });
});
