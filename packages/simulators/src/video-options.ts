import type { IncomingHttpHeaders } from 'node:http';

// The video simulator's public types: its protocols, options, faults and recorded requests.

export type VideoProtocol = 'ark' | 'minimax';

export interface VideoFault {
  /** The next create answers this HTTP status with the vendor's error body (429 may carry retryAfter seconds). */
  status?: number;
  retryAfter?: number;
  /** The next created task ends `failed` on its first running poll with a content-moderation error. */
  moderation?: boolean;
  /** The next created task ends `cancelled` (on its first poll after the queued ones). */
  cancelled?: boolean;
}

export interface VideoSimulatorOptions {
  protocol: VideoProtocol;
  /** The bearer credential it accepts. */
  credential: string;
  /** Model names it serves. */
  models: readonly string[];
  /** Queries answered `queued` before `running` (default 1). */
  queuedPolls?: number;
  /** Queries answered `running` before `succeeded` (default 2). */
  runningPolls?: number;
  /** Size of the mp4 served for every finished task (default 256 KiB). */
  clipBytes?: number;
  /** Signed URL lifetime in seconds (default 86400). */
  urlTtlSeconds?: number;
  /** Downloads allowed per signed URL (default 100). */
  urlMaxDownloads?: number;
  /** Keep received requests for assertions (default true; off in benchmarks). */
  record?: boolean;
}

export interface VideoRecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}
