import { collectDefaultMetrics, Registry } from 'prom-client';

// One registry per process. In the all-in-one start the four services share the process, so
// every metric is created once (the getters in metrics.ts) and each service finds it there.

const registry = new Registry();
let defaultsCollected = false;

/** The process's metrics registry, with Node's process metrics (CPU, memory, event loop, GC). */
export function metricsRegistry(): Registry {
  if (!defaultsCollected) {
    defaultsCollected = true;
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

/** The registry's text exposition and its content type, as GET /metrics serves them. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const current = metricsRegistry();
  return { contentType: current.contentType, body: await current.metrics() };
}

/** Builds a metric once per process, on first use. */
export function once<T>(build: (registry: Registry) => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build(metricsRegistry());
    return built;
  };
}

/**
 * A metric's children by label values, kept so the hot path finds one with a few map lookups
 * instead of building a labels object per observation. Values must come from bounded sets.
 */
export type LabelValue = string | number;

export class LabelledChildren<C> {
  readonly #byFirst = new Map<LabelValue, Map<LabelValue, Map<LabelValue, C>>>();

  constructor(private readonly make: (first: string, second: string, third: string) => C) {}

  get(first: LabelValue, second: LabelValue = '', third: LabelValue = ''): C {
    let bySecond = this.#byFirst.get(first);
    if (!bySecond) {
      bySecond = new Map();
      this.#byFirst.set(first, bySecond);
    }
    let byThird = bySecond.get(second);
    if (!byThird) {
      byThird = new Map();
      bySecond.set(second, byThird);
    }
    let child = byThird.get(third);
    if (child === undefined) {
      child = this.make(String(first), String(second), String(third));
      byThird.set(third, child);
    }
    return child;
  }
}
