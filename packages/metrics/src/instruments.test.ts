import { createInstruments, knownCombinations } from './instruments';

async function samples(instruments: ReturnType<typeof createInstruments>, name: string) {
  return (await instruments.registry.getSingleMetric(name)?.get())?.values ?? [];
}

describe('instruments', () => {
  test('known label values: every combination, none when nothing is known', () => {
    expect(knownCombinations({ a: ['x', 'y'], b: ['z'] })).toEqual([
      { a: 'x', b: 'z' },
      { a: 'y', b: 'z' },
    ]);
    expect(knownCombinations(undefined)).toEqual([]);
  });

  test('each registry has kandev_build_info = 1 and its own series', async () => {
    const a = createInstruments();
    const b = createInstruments();
    a.counter({ name: 'kandev_test_total', help: 'h' }).inc();
    b.counter({ name: 'kandev_test_total', help: 'h' });
    expect((await samples(a, 'kandev_test_total'))[0]?.value).toBe(1);
    expect((await samples(b, 'kandev_test_total'))[0]?.value).toBe(0);
    const [build] = await samples(a, 'kandev_build_info');
    expect(build).toMatchObject({ value: 1, labels: { version: '0.1.0', node: process.versions.node } });
  });

  test('known outcomes are series at 0 from the start; a gauge read on scrape keeps them', async () => {
    const instruments = createInstruments();
    const settle = instruments.outcomes({
      total: { name: 'kandev_test_calls_total', help: 'h' },
      duration: { name: 'kandev_test_call_seconds', help: 'h', buckets: [1] },
      known: ['ok', 'timed_out'],
    });
    expect((await samples(instruments, 'kandev_test_calls_total')).map((s) => [s.labels.outcome, s.value])).toEqual([
      ['ok', 0],
      ['timed_out', 0],
    ]);
    settle('timed_out', 2);
    const total = await samples(instruments, 'kandev_test_calls_total');
    expect(total.find((s) => s.labels.outcome === 'timed_out')?.value).toBe(1);
    const histogram = await instruments.registry.getSingleMetricAsString('kandev_test_call_seconds');
    expect(histogram).toContain('kandev_test_call_seconds_count{outcome="ok"} 0');
    expect(histogram).toContain('kandev_test_call_seconds_count{outcome="timed_out"} 1');

    let held: Record<string, number> = { a: 2 };
    instruments.gauge({
      name: 'kandev_test_held',
      help: 'h',
      labelNames: ['state'] as const,
      known: { state: ['a', 'b'] },
      read: (set) => Object.entries(held).forEach(([state, n]) => set({ state }, n)),
    });
    const read = async () => (await samples(instruments, 'kandev_test_held')).map((s) => [s.labels.state, s.value]);
    expect(await read()).toEqual([
      ['a', 2],
      ['b', 0],
    ]);
    held = { b: 1 };
    expect(await read()).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });
});
