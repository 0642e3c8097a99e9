import { collectDefaultMetrics, Counter, Gauge, Histogram, type LabelValues, Registry } from 'prom-client';
import { BUILD_INFO_METRIC, buildInfo } from './build-info';

/**
 * Every value each label can take where the set is known up front (states, reasons, outcomes): each
 * combination is exported from the start as 0, so an alert or a dashboard sees 0 rather than no series.
 */
export type KnownLabels<L extends string> = { readonly [K in L]: readonly string[] };

interface BaseSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  known?: KnownLabels<L>;
}

export type CounterSpec<L extends string> = BaseSpec<L>;

export interface HistogramSpec<L extends string> extends BaseSpec<L> {
  buckets: readonly number[];
  /**
   * For a distribution of what is held now rather than of past events: on each scrape the histogram
   * is cleared and `read` observes every current value.
   */
  read?: (observe: (labels: LabelValues<L>, value: number) => void) => void;
}

/** A counter and a duration histogram of the same events, both by their outcome. */
export interface OutcomesSpec {
  total: { name: string; help: string };
  duration: { name: string; help: string; buckets: readonly number[] };
  /** Outcomes exported from the start, at 0. */
  known?: readonly string[];
}

export interface GaugeSpec<L extends string> extends BaseSpec<L> {
  /**
   * Read on each scrape (never on a hot path): the gauge is cleared, its known combinations set to 0,
   * then `read` sets what its source holds now.
   */
  read?: (set: (labels: LabelValues<L>, value: number) => void) => Promise<void> | void;
}

/** The cross product of the known values: `{a: [x, y], b: [z]}` -> `[{a: x, b: z}, {a: y, b: z}]`. */
export function knownCombinations<L extends string>(known: KnownLabels<L> | undefined): LabelValues<L>[] {
  if (known === undefined) return [];
  let combinations: Record<string, string>[] = [{}];
  for (const [label, values] of Object.entries<readonly string[]>(known)) {
    combinations = combinations.flatMap((partial) => values.map((value) => ({ ...partial, [label]: value })));
  }
  return combinations as LabelValues<L>[];
}

/**
 * One daemon's metrics: its own Registry (never prom-client's global one, so two daemons in one test
 * process never share series) with Node's default metrics and `kandev_build_info`, and the constructors
 * of its instruments, registered there with their zero-valued series.
 */
export function createInstruments() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  new Gauge({
    name: BUILD_INFO_METRIC,
    help: 'Always 1: the kandev release (version) and the Node.js version (node) this process runs',
    labelNames: ['version', 'node'] as const,
    registers,
  }).set(buildInfo(), 1);

  return {
    registry,
    counter<L extends string = never>(spec: CounterSpec<L>): Counter<L> {
      const counter = new Counter<L>({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames ?? [],
        registers,
      });
      for (const labels of knownCombinations(spec.known)) counter.inc(labels, 0);
      return counter;
    },
    histogram<L extends string = never>(spec: HistogramSpec<L>): Histogram<L> {
      const zeroes = knownCombinations(spec.known);
      const read = spec.read;
      const histogram: Histogram<L> = new Histogram<L>({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames ?? [],
        buckets: [...spec.buckets],
        registers,
        ...(read === undefined
          ? {}
          : {
              collect() {
                histogram.reset();
                for (const labels of zeroes) histogram.zero(labels);
                read((labels, value) => histogram.observe(labels, value));
              },
            }),
      });
      for (const labels of zeroes) histogram.zero(labels);
      return histogram;
    },
    /** Counts an event and observes its duration, both labelled `outcome`. */
    outcomes(spec: OutcomesSpec): (outcome: string, seconds: number) => void {
      const known = spec.known === undefined ? undefined : { outcome: spec.known };
      const total = this.counter({ ...spec.total, labelNames: ['outcome'] as const, known });
      const duration = this.histogram({ ...spec.duration, labelNames: ['outcome'] as const, known });
      return (outcome, seconds) => {
        total.inc({ outcome });
        duration.observe({ outcome }, seconds);
      };
    },
    gauge<L extends string = never>(spec: GaugeSpec<L>): Gauge<L> {
      const zeroes = knownCombinations(spec.known);
      const read = spec.read;
      const gauge: Gauge<L> = new Gauge<L>({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames ?? [],
        registers,
        ...(read === undefined
          ? {}
          : {
              async collect() {
                gauge.reset();
                for (const labels of zeroes) gauge.set(labels, 0);
                await read((labels, value) => gauge.set(labels, value));
              },
            }),
      });
      for (const labels of zeroes) gauge.set(labels, 0);
      return gauge;
    },
  };
}

export type Instruments = ReturnType<typeof createInstruments>;
