export { metricsRegistry, renderMetrics, LabelledChildren, type LabelValue } from './registry.js';
export {
  httpRequestSeries,
  overheadSeries,
  grpcCallSeries,
  upstreamSeries,
  spendSeries,
  countTokens,
  countEstimatedCall,
  type TokenCounts,
  videoJobSeries,
  busEventsRejectedSeries,
  countStoreWrite,
  setDownstreamUp,
  type HttpRequestSeries,
  type GrpcCallSeries,
  type CounterChild,
  type HistogramChild,
} from './metrics.js';
export { observeBus, type BusStats, type BusStatsSource } from './bus.js';
export { bucketQuantile, trafficSummary, type TrafficSummary } from './summary.js';
export {
  contextFromHeaders,
  contextFromMetadata,
  injectTraceContext,
  startServerScope,
  endServerScope,
  recordClientSpan,
  tracingEnabled,
  type MetadataCarrier,
  type TracedScope,
  type ServerSpanOptions,
} from './trace.js';
export {
  startTracing,
  exporterConfigured,
  tracesUrl,
  type Tracing,
  type TracingOptions,
  type TracingEnv,
  type TelemetryLogger,
} from './tracing-sdk.js';
