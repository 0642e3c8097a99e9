import { PassThrough } from 'node:stream';
import { writeReadyLine } from './ready-line';

describe('writeReadyLine', () => {
  test('writes exactly one JSON line, and refuses a second one', () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    writeReadyLine({ grpcPort: 7421, mcpPort: 7422, grpcTransport: 'mtls' }, out);
    expect(() => writeReadyLine({ grpcPort: 1, mcpPort: 2, grpcTransport: 'plaintext' }, out)).toThrow(/already/);
    expect(chunks.join('')).toBe(
      `{"event":"ready","grpcPort":7421,"mcpPort":7422,"grpcTransport":"mtls","pid":${process.pid}}\n`,
    );
  });
});
