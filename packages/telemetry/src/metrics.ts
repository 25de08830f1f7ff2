import { Gauge } from 'prom-client';
import { LabelledChildren, once, type LabelValue } from './registry.js';
import { SeriesCounter, SeriesHistogram, type CounterChild, type HistogramChild } from './series.js';

// Every series the gateway exports, created once per process. Label values come from bounded
// sets only (route patterns, served group ids, provider names, status codes), never from what a
// caller typed, so the number of series stays bounded. Counters and histograms record in plain
// numbers (series.ts): the request path only adds.

/** Request and call durations: milliseconds for the gateway's own hops, minutes for long generations. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** The gateway's own share of a call: expected well under a few milliseconds. */
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

export type { CounterChild, HistogramChild };

export interface HttpRequestSeries {
  requests: CounterChild;
  duration: HistogramChild;
}

const httpRequests = once((registry) => {
  const labelNames = ['route', 'group', 'status'] as const;
  const requests = new SeriesCounter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests the edge answered, by route pattern, model group (chat and video routes; empty otherwise) and status code.',
    labelNames,
    registers: [registry],
  });
  const duration = new SeriesHistogram({
    name: 'gateway_http_request_duration_seconds',
    help: "Time from the request's arrival at the edge to the end of its response (a stream's last event), in seconds.",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return new LabelledChildren((route, group, status) => ({
    requests: requests.labels(route, group, status),
    duration: duration.labels(route, group, status),
  }));
});

/** The edge's request counter and duration histogram for one route, group and status. */
export function httpRequestSeries(route: string, group: string, status: number): HttpRequestSeries {
  return httpRequests().get(route, group, status);
}

const overhead = once((registry) => {
  const histogram = new SeriesHistogram({
    name: 'gateway_overhead_seconds',
    help: "The gateway's own time in a successful call, measured at the edge: the total time (to the response's end; for streams, to the first event) minus the time the chat service spent waiting on upstreams (to their full answer; for streams, to their first chunk), in seconds.",
    labelNames: ['route'] as const,
    buckets: OVERHEAD_BUCKETS,
    registers: [registry],
  });
  return new LabelledChildren((route) => histogram.labels(route));
});

export function overheadSeries(route: string): HistogramChild {
  return overhead().get(route);
}

export interface GrpcCallSeries {
  handled: CounterChild;
  handling: HistogramChild;
}

const grpcServer = once((registry) => {
  const handled = new SeriesCounter({
    name: 'gateway_grpc_server_handled_total',
    help: 'gRPC calls a service finished, by service, method and status code.',
    labelNames: ['service', 'method', 'code'] as const,
    registers: [registry],
  });
  const handling = new SeriesHistogram({
    name: 'gateway_grpc_server_handling_seconds',
    help: 'Time a service spent on a gRPC call, from its arrival to its last message or status, in seconds.',
    labelNames: ['service', 'method'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    handled: new LabelledChildren((service, method, code) => handled.labels(service, method, code)),
    handling: new LabelledChildren((service, method) => handling.labels(service, method)),
  };
});

/** A gRPC method's call counter (for one status code) and duration histogram. */
export function grpcCallSeries(service: string, method: string, code: LabelValue): GrpcCallSeries {
  const series = grpcServer();
  return { handled: series.handled.get(service, method, code), handling: series.handling.get(service, method) };
}

const upstream = once((registry) => {
  const histogram = new SeriesHistogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time the chat service waited on one upstream attempt, by group, provider and outcome (ok, or the failure kind): to the full answer for plain calls, to the first chunk for streams, in seconds.',
    labelNames: ['group', 'provider', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return new LabelledChildren((group, provider, outcome) => histogram.labels(group, provider, outcome));
});

export function upstreamSeries(group: string, provider: string, outcome: string): HistogramChild {
  return upstream().get(group, provider, outcome);
}

const spend = once((registry) => {
  const counter = new SeriesCounter({
    name: 'gateway_spend_nano_usd_total',
    help: 'Spend applied to the ledger, in nano-dollars (1e-9 USD), by group and kind (chat or video); each spend event counts once.',
    labelNames: ['group', 'kind'] as const,
    registers: [registry],
  });
  return new LabelledChildren((group, kind) => counter.labels(group, kind));
});

export function spendSeries(group: string, kind: string): CounterChild {
  return spend().get(group, kind);
}

const tokens = once((registry) => {
  const counter = new SeriesCounter({
    name: 'gateway_tokens_total',
    help: "Tokens of metered chat calls, by group and kind: prompt, cached (the part of prompt served from the upstream's prompt cache), completion (reasoning included) and reasoning.",
    labelNames: ['group', 'kind'] as const,
    registers: [registry],
  });
  return new LabelledChildren((group, kind) => counter.labels(group, kind));
});

/** A metered chat call's token counts. */
export interface TokenCounts {
  prompt: number;
  /** Part of prompt. */
  cached: number;
  completion: number;
  /** Part of completion. */
  reasoning: number;
}

/** Counts a metered chat call's tokens for its group. */
export function countTokens(group: string, counts: TokenCounts): void {
  const series = tokens();
  series.get(group, 'prompt').inc(counts.prompt);
  series.get(group, 'cached').inc(counts.cached);
  series.get(group, 'completion').inc(counts.completion);
  series.get(group, 'reasoning').inc(counts.reasoning);
}

const estimated = once((registry) => {
  const counter = new SeriesCounter({
    name: 'gateway_estimated_calls_total',
    help: "Chat calls billed on the gateway's own token count rather than the upstream's usage (the caller left a stream, or the upstream sent no usage), by group.",
    labelNames: ['group'] as const,
    registers: [registry],
  });
  return new LabelledChildren((group) => counter.labels(group));
});

/** Counts a chat call billed on an estimate. */
export function countEstimatedCall(group: string): void {
  estimated().get(group).inc();
}

const rejected = once((registry) => {
  const counter = new SeriesCounter({
    name: 'gateway_bus_events_rejected_total',
    help: 'Bus events a consumer could not decode or check against their schema, by subject; dead-lettered, never applied.',
    labelNames: ['subject'] as const,
    registers: [registry],
  });
  return new LabelledChildren((subject) => counter.labels(subject));
});

export function busEventsRejectedSeries(subject: string): CounterChild {
  return rejected().get(subject);
}

const storeWrites = once((registry) => {
  const counter = new SeriesCounter({
    name: 'gateway_store_writes_total',
    help: 'Write operations the process issued to its store, by collection and operation (insert_one, insert_many, update_one, find_one_and_update, delete_many); one per call, however many documents it writes, and a conditional write that matched nothing counts too.',
    labelNames: ['collection', 'op'] as const,
    registers: [registry],
  });
  return new LabelledChildren((collection, op) => counter.labels(collection, op));
});

/** Counts one write operation on a store collection (what the store adapters report to). */
export function countStoreWrite(collection: string, op: string): void {
  storeWrites().get(collection, op).inc();
}

const videoJobs = once((registry) => {
  const counter = new SeriesCounter({
    name: 'gateway_video_jobs_total',
    help: 'Video jobs entering a status (queued, in_progress, completed, failed, cancelled), by group.',
    labelNames: ['group', 'status'] as const,
    registers: [registry],
  });
  return new LabelledChildren((group, status) => counter.labels(group, status));
});

export function videoJobSeries(group: string, status: string): CounterChild {
  return videoJobs().get(group, status);
}

const downstreamUp = once(
  (registry) =>
    new Gauge({
      name: 'gateway_downstream_up',
      help: "Whether the edge's last probes found each internal service serving (1) or not (0): accounting, chat, video, and the event bus.",
      labelNames: ['service'] as const,
      registers: [registry],
    }),
);

/** The edge's view of one internal service (or the bus): serving or not. */
export function setDownstreamUp(service: string, up: boolean): void {
  downstreamUp()
    .labels(service)
    .set(up ? 1 : 0);
}
