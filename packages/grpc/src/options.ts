import type { ChannelOptions } from '@grpc/grpc-js';

/** Large enough for a chat request carrying images at the edge's body limit. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export const channelOptions: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  // grpc-js waits up to two minutes between reconnects by default; a restarted service should
  // be reached again within a couple of seconds.
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.min_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2000,
  // Per-call bookkeeping nobody reads here (channelz), and grpc-js's own retry layer (our
  // unary() retries UNAVAILABLE itself): both cost CPU on every call.
  'grpc.enable_channelz': 0,
  'grpc.enable_retries': 0,
  // A target naming several replicas (ipv4:a,b or dns:/// over a headless Service) spreads
  // calls over all of them rather than pinning to the first.
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  // Servers end each connection after about five minutes (clients reconnect at once), so a
  // client balancing over a headless Service looks up its DNS name again and reaches pods added
  // since; calls still running on the old connection get an hour to finish.
  'grpc.max_connection_age_ms': 5 * 60_000,
  'grpc.max_connection_age_grace_ms': 60 * 60_000,
};

/** Metadata key carrying the edge's request id through every hop. */
export const REQUEST_ID_KEY = 'x-request-id';
