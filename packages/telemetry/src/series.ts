import type { Metric, Registry } from 'prom-client';

// Counters and histograms whose series record in plain numbers. prom-client's own children check
// their label values and build the series' hash string on every inc and observe: a string made
// and looked up nine times per chat call. Here a series is found once, when first asked for
// (LabelledChildren keeps it), and recording is an addition. The registry reads these metrics
// when it is scraped, in the shape prom-client's own counters and histograms give it, so
// GET /metrics, getSingleMetric(name).get() and the admin summary read them unchanged.

type Labels = Record<string, string>;

/** One exported row: a counter's series, or a histogram's bucket, sum or count. */
interface Row {
  labels: Record<string, string | number>;
  value: number;
  /** A histogram's rows: `<name>_bucket`, `_sum` or `_count`. */
  metricName?: string;
  /** Text exposition only: the series' labels, apart from the row's own (`le`). */
  sharedLabels?: Labels;
}

/** What the registry reads of a metric (prom-client's own typings name the type otherwise). */
interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Row[];
}

/** One series of a counter: only grows. */
export interface CounterChild {
  inc(value?: number): void;
}

/** One series of a histogram. */
export interface HistogramChild {
  observe(value: number): void;
}

export interface SeriesMetricOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: Registry[];
}

/** The labels of one series, in the metric's label order (the exposition's order). */
function labelsOf(names: readonly string[], values: readonly string[]): Labels {
  if (values.length !== names.length) throw new TypeError(`expected ${names.length} label values, got ${values.length}`);
  const labels: Labels = {};
  for (let i = 0; i < names.length; i += 1) labels[names[i] as string] = values[i] as string;
  return labels;
}

abstract class SeriesMetric<S> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly aggregator = 'sum' as const;
  /** Every series, by its label values joined: one object per combination, whoever asks. */
  protected readonly series = new Map<string, S>();

  constructor(options: SeriesMetricOptions) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    // The registry reads a metric through `name`, `get()` (or `getForPromString()`) and `reset()`;
    // these implement them, so they register as prom-client's own metrics do.
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these label values (made on first use, then the same object). */
  labels(...values: string[]): S {
    const key = values.join('\u0000');
    let found = this.series.get(key);
    if (found === undefined) {
      found = this.create(labelsOf(this.labelNames, values));
      this.series.set(key, found);
    }
    return found;
  }

  protected abstract create(labels: Labels): S;
  abstract reset(): void;
}

class CounterSeries implements CounterChild {
  value = 0;

  constructor(readonly labels: Labels) {}

  inc(value = 1): void {
    if (!(value >= 0 && value < Number.POSITIVE_INFINITY))
      throw new RangeError(`a counter grows by a finite, non-negative amount, not ${value}`);
    this.value += value;
  }
}

/** A counter with labels: prom-client's `Counter`, recording in plain numbers. */
export class SeriesCounter extends SeriesMetric<CounterChild> {
  readonly type = 'counter' as const;

  protected create(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }

  async get(): Promise<Exported> {
    const values: Row[] = [];
    for (const series of this.series.values()) {
      const { labels, value } = series as CounterSeries;
      values.push({ labels, value });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    // The series objects stay: callers keep them.
    for (const series of this.series.values()) (series as CounterSeries).value = 0;
  }
}

class HistogramSeries implements HistogramChild {
  /** Observations per bucket (not cumulative); above the last bound, only in `count`. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`a histogram observes finite values, not ${value}`);
    this.sum += value;
    this.count += 1;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i += 1) {
      if (value <= (bounds[i] as number)) {
        (this.counts[i] as number) += 1;
        return;
      }
    }
  }
}

/** A histogram with labels: prom-client's `Histogram`, recording in plain numbers. */
export class SeriesHistogram extends SeriesMetric<HistogramChild> {
  readonly type = 'histogram' as const;
  readonly #bounds: readonly number[];

  constructor(options: SeriesMetricOptions & { buckets: readonly number[] }) {
    super(options);
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
  }

  protected create(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.#bounds);
  }

  /** The rows as prom-client's histogram exports them: cumulative buckets, `+Inf`, sum, count. */
  #rows(split: boolean): Row[] {
    const rows: Row[] = [];
    const bucket = `${this.name}_bucket`;
    // As exported for text, a row's own labels (`le`) are apart from the series' (prom-client's
    // sharedLabels); `get()` merges them, as prom-client's does.
    const row = (own: Record<string, string | number>, series: Labels, value: number, metricName: string): Row =>
      split ? { labels: own, sharedLabels: series, value, metricName } : { labels: { ...own, ...series }, value, metricName };
    for (const series of this.series.values()) {
      const { labels, counts, sum, count } = series as HistogramSeries;
      let cumulative = 0;
      for (let i = 0; i < this.#bounds.length; i += 1) {
        cumulative += counts[i] as number;
        rows.push(row({ le: this.#bounds[i] as number }, labels, cumulative, bucket));
      }
      rows.push(row({ le: '+Inf' }, labels, count, bucket));
      rows.push(row({}, labels, sum, `${this.name}_sum`));
      rows.push(row({}, labels, count, `${this.name}_count`));
    }
    return rows;
  }

  async get(): Promise<Exported> {
    return this.#result(false);
  }

  async getForPromString(): Promise<Exported> {
    return this.#result(true);
  }

  #result(split: boolean): Exported {
    return { name: this.name, help: this.help, type: this.type, values: this.#rows(split), aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.series.values()) {
      const histogram = series as HistogramSeries;
      histogram.counts.fill(0);
      histogram.sum = 0;
      histogram.count = 0;
    }
  }
}
