import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram } from '../src/series.js';

// The series metrics must read exactly as prom-client's own counters and histograms do: the same
// operations on both, in registries of their own, give the same exposition and the same get().

const BUCKETS = [0.001, 0.01, 0.1, 1];
const help = 'a help text';

function pair() {
  const ours = new Registry();
  const theirs = new Registry();
  return {
    ours,
    theirs,
    counters: [
      new SeriesCounter({ name: 'calls_total', help, labelNames: ['route', 'status'], registers: [ours] }),
      new Counter({ name: 'calls_total', help, labelNames: ['route', 'status'], registers: [theirs] }),
    ] as const,
    histograms: [
      new SeriesHistogram({ name: 'call_seconds', help, labelNames: ['route'], buckets: BUCKETS, registers: [ours] }),
      new Histogram({ name: 'call_seconds', help, labelNames: ['route'], buckets: BUCKETS, registers: [theirs] }),
    ] as const,
  };
}

/** prom-client's rows also carry its exemplar slots (null or undefined: exemplars are off). */
function withoutExemplars(read: unknown): unknown {
  return JSON.parse(JSON.stringify(read, (key, value: unknown) => (key === 'exemplar' ? undefined : value)));
}

describe('series metrics', () => {
  it('expose and read what prom-client exposes and reads for the same observations', async () => {
    const { ours, theirs, counters, histograms } = pair();
    for (const counter of counters) {
      counter.labels('/v1/chat/completions', '200').inc();
      counter.labels('/v1/chat/completions', '200').inc(2);
      counter.labels('/v1/models', '401').inc(0);
      counter.labels('/v1/videos', '200').inc(1.5);
    }
    for (const histogram of histograms) {
      for (const value of [0, 0.0005, 0.001, 0.002, 0.05, 0.5, 1, 7.25]) histogram.labels('/v1/chat/completions').observe(value);
      histogram.labels('/v1/models').observe(0.02);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(withoutExemplars(await ours.getMetricsAsJSON())).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
    expect(withoutExemplars(await ours.getSingleMetric('call_seconds')?.get())).toEqual(
      withoutExemplars(await theirs.getSingleMetric('call_seconds')?.get()),
    );
  });

  it('gives the same series object for the same label values', () => {
    const { counters, histograms } = pair();
    expect(counters[0].labels('a', 'b')).toBe(counters[0].labels('a', 'b'));
    expect(counters[0].labels('a', 'b')).not.toBe(counters[0].labels('a', 'c'));
    expect(histograms[0].labels('a')).toBe(histograms[0].labels('a'));
  });

  it('resets to zero, and series kept by callers go on counting', async () => {
    const { ours, theirs, counters, histograms } = pair();
    const kept = counters[0].labels('/v1/models', '200');
    kept.inc(5);
    histograms[0].labels('/v1/models').observe(0.5);
    ours.resetMetrics();
    kept.inc();
    counters[1].labels('/v1/models', '200').inc();
    // prom-client drops a histogram's series at reset; ours reads zero until observed again.
    const read = await histograms[0].get();
    expect(read.values.every((row) => row.value === 0)).toBe(true);
    histograms[0].labels('/v1/models').observe(0.005);
    histograms[1].labels('/v1/models').observe(0.005);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuses what a counter or histogram cannot record, and wrong label counts', () => {
    const { counters, histograms } = pair();
    const series = counters[0].labels('a', 'b');
    expect(() => series.inc(-1)).toThrow(RangeError);
    expect(() => series.inc(Number.NaN)).toThrow(RangeError);
    expect(() => series.inc(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => histograms[0].labels('a').observe(Number.NaN)).toThrow(TypeError);
    expect(() => counters[0].labels('only-one')).toThrow(TypeError);
  });
});
