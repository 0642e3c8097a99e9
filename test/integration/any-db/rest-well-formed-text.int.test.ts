// Lone UTF-16 surrogates at the REST boundary, against a real backend on either database: JSON.parse
// turns a "\ud800" escape into one, which has no UTF-8 form (SQLite would store invalid bytes where
// PostgreSQL refuses the row). Every such body is a 400 and nothing is stored, on both alike.
import fc from 'fast-check';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';

interface ErrorBody {
  error: { code: string; message: string };
}

const wellFormed = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((text) => !text.includes('\u0000'));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

describe('REST refuses unpaired surrogates', () => {
  const cleanup = useCleanup();

  test('any body string holding one is a 400 and nothing is stored; well-formed text is kept as sent', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const names = async () =>
      (await api.request<{ workspaces: { name: string }[] }>('GET', '/api/workspaces?limit=200')).body.workspaces.map(
        (w) => w.name,
      );

    await fc.assert(
      fc.asyncProperty(wellFormed, loneSurrogate, wellFormed, async (before, unit, after) => {
        // Between two ASCII letters the unit can never pair with a neighbour: always a lone surrogate.
        const name = `${before}a${unit}b${after}`;
        const refused = await api.request<ErrorBody>('POST', '/api/workspaces', { name });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatchObject({
          code: 'invalid_argument',
          message: expect.stringMatching(/well-formed Unicode/),
        });
      }),
      { numRuns: 40, seed: 20261205 },
    );
    // The barrier: a well-formed name (an astral character is a surrogate pair) is stored and read back
    // after every refusal; nothing else was.
    const kept = 'ok \u{1F600} \ud83d\ude00';
    await api.workspace(kept);
    expect(await names()).toEqual([kept]);
  });
});
