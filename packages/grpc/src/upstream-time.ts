import { Metadata } from './grpc-js.js';

/**
 * Response metadata (leading, so it arrives before the first message) naming the milliseconds a
 * handler spent waiting on upstream providers. The edge subtracts it from its own total to
 * measure the gateway's overhead without timing anything twice.
 */
export const UPSTREAM_MS_KEY = 'x-upstream-ms';

export function upstreamMetadata(upstreamMs: number): Metadata {
  const metadata = new Metadata();
  metadata.set(UPSTREAM_MS_KEY, upstreamMs.toFixed(3));
  return metadata;
}

/** The upstream milliseconds a response's metadata names, if any. */
export function upstreamMsOf(metadata: Metadata): number | undefined {
  const value = metadata.get(UPSTREAM_MS_KEY)[0];
  if (typeof value !== 'string') return undefined;
  const ms = Number(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
