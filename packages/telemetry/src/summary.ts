import type { MetricObjectWithValues, MetricValue, MetricValueWithName } from 'prom-client';
import { metricsRegistry } from './registry.js';

// The admin overview's traffic figures, read from the same series GET /metrics exposes (so the
// dashboard and a Prometheus query agree): this process's counts since it started.

export interface TrafficSummary {
  /** Calls to /v1 routes answered. */
  requests: number;
  /** Of which answered 5xx. */
  errors: number;
  /** Of which answered 4xx. */
  clientErrors: number;
  /** Seconds; null before any call was measured. */
  latency: { p50: number | null; p95: number | null };
  overhead: { p50: number | null; p95: number | null };
}

type Values = MetricValue<string>[] | MetricValueWithName<string>[];

async function valuesOf(name: string): Promise<Values> {
  const metric = metricsRegistry().getSingleMetric(name);
  if (!metric) return [];
  const read = (await metric.get()) as MetricObjectWithValues<MetricValue<string>>;
  return read.values;
}

const isCall = (route: unknown): boolean => typeof route === 'string' && route.startsWith('/v1/');

/**
 * A quantile of a histogram's cumulative buckets, merged over its series, as Prometheus's
 * histogram_quantile computes it: linear within the bucket the rank falls in.
 */
export function bucketQuantile(q: number, buckets: ReadonlyMap<number, number>): number | null {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Number.POSITIVE_INFINITY) ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bound of bounds) {
    const count = buckets.get(bound) ?? 0;
    if (count >= rank) {
      // Above the last finite bound the answer is that bound (no upper edge to go by).
      if (bound === Number.POSITIVE_INFINITY) return lowerBound;
      return lowerBound + (bound - lowerBound) * ((rank - lowerCount) / Math.max(count - lowerCount, 1e-9));
    }
    lowerBound = bound;
    lowerCount = count;
  }
  return lowerBound;
}

/** Cumulative bucket counts by upper bound, summed over the series `keep` accepts. */
function mergedBuckets(values: Values, keep: (labels: Record<string, unknown>) => boolean): Map<number, number> {
  const buckets = new Map<number, number>();
  for (const value of values) {
    if (!('metricName' in value) || !value.metricName?.endsWith('_bucket')) continue;
    const labels = value.labels as Record<string, unknown>;
    if (!keep(labels)) continue;
    const le = labels.le === '+Inf' || labels.le === undefined ? Number.POSITIVE_INFINITY : Number(labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + value.value);
  }
  return buckets;
}

export async function trafficSummary(): Promise<TrafficSummary> {
  let requests = 0;
  let errors = 0;
  let clientErrors = 0;
  for (const value of await valuesOf('gateway_http_requests_total')) {
    if (!isCall(value.labels.route)) continue;
    const status = Number(value.labels.status);
    requests += value.value;
    if (status >= 500) errors += value.value;
    else if (status >= 400) clientErrors += value.value;
  }
  const duration = mergedBuckets(await valuesOf('gateway_http_request_duration_seconds'), (labels) => isCall(labels.route));
  const overhead = mergedBuckets(await valuesOf('gateway_overhead_seconds'), () => true);
  return {
    requests,
    errors,
    clientErrors,
    latency: { p50: bucketQuantile(0.5, duration), p95: bucketQuantile(0.95, duration) },
    overhead: { p50: bucketQuantile(0.5, overhead), p95: bucketQuantile(0.95, overhead) },
  };
}
