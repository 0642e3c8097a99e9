import { diffsMetadata, planContent, planEntriesMetadata, planStreamKey, textStreamKey } from './agent-stream';

describe('agent stream entries', () => {
  test('a plan reads one line per entry, marked by status, in the agent order', () => {
    const entries = [
      { content: 'Read the parser', priority: 'high', status: 'completed' },
      { content: 'Fix the off-by-one', priority: 'high', status: 'in_progress' },
      { content: 'Add a test', priority: 'low', status: 'pending' },
    ] as const;
    expect(planContent(entries)).toBe('[x] Read the parser\n[~] Fix the off-by-one\n[ ] Add a test');
    expect(planEntriesMetadata(entries)).toEqual(entries);
    expect(planContent([])).toBe('');
  });

  test('each run of text and each plan has its own key within the session', () => {
    expect(
      new Set([textStreamKey('p1', 1), textStreamKey('p1', 2), textStreamKey('p2', 1), planStreamKey('p1')]).size,
    ).toBe(4);
  });

  test('file changes are kept snake_case; a new file has no old text', () => {
    expect(diffsMetadata([{ path: 'a.ts', oldText: null, newText: 'x', truncated: true }])).toEqual([
      { path: 'a.ts', old_text: null, new_text: 'x', truncated: true },
    ]);
  });
});
