export {
  type CounterSpec,
  createInstruments,
  type GaugeSpec,
  type HistogramSpec,
  type Instruments,
  type KnownLabels,
  type OutcomesSpec,
  knownCombinations,
} from './instruments';
export { BUILD_INFO_METRIC, buildInfo, kandevVersion } from './build-info';
