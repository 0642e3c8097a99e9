// Timing and statistics of the tools-list benchmark: rounds that alternate the variant order, so that
// machine noise (another build, a test run) lands on every variant, and a compact figures table.
import { performance } from 'node:perf_hooks';

async function timeCalls(call, count, samples) {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
}

function summarize(samples, roundMeans) {
  const sorted = Float64Array.from(samples).sort();
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  // Nearest-rank percentile.
  const at = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  return { count: sorted.length, mean, p50: at(0.5), p95: at(0.95), p99: at(0.99), roundMeans };
}

/**
 * Times `variants` ({ label, call }) and returns them with `stats`. The client process is shared: every
 * variant is warmed once before any timing, so its JIT warm-up is not charged to whichever runs first;
 * then each round gives each variant `warmup` untimed and `iterations` timed calls, order A B C, C B A, ...
 */
export async function timeRounds(variants, { rounds, warmup, iterations }) {
  const timed = variants.map((variant) => ({ ...variant, samples: [], roundMeans: [] }));
  for (const variant of timed) await timeCalls(variant.call, warmup, []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? timed : [...timed].reverse();
    for (const variant of order) {
      await timeCalls(variant.call, warmup, []);
      const before = variant.samples.length;
      await timeCalls(variant.call, iterations, variant.samples);
      const roundSamples = variant.samples.slice(before);
      variant.roundMeans.push(roundSamples.reduce((sum, value) => sum + value, 0) / roundSamples.length);
    }
  }
  return timed.map(({ label, samples, roundMeans }) => ({ label, stats: summarize(samples, roundMeans) }));
}

const fixed = (value) => value.toFixed(3);

/** A markdown table of timed variants: calls, mean, p50/p95/p99 and each round's mean, in ms. */
export function figuresTable(variants) {
  const row = ({ label, stats }) =>
    `| ${[label, stats.count, fixed(stats.mean), fixed(stats.p50), fixed(stats.p95), fixed(stats.p99)].join(' | ')} | ` +
    `${stats.roundMeans.map(fixed).join(' / ')} |`;
  return [
    '| variant | calls | mean ms | p50 ms | p95 ms | p99 ms | round means ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...variants.map(row),
  ];
}
