import type { ChunkDialect, StreamWrite } from './completions.js';
import type { JsonObject } from './request.js';
import type { ChatUsage } from './usage.js';
import type { MeteredUsage } from './metering.js';

// What every other dialect's stream does alike on the chat pipeline: its opening events go out
// with the first chunk's (until then a failure is still an HTTP status), and the tool types it
// dropped ride on the first message (before the edge writes its headers).

/** A dialect's event grammar over a stream of chat chunks. */
export interface DialectEvents {
  /** The opening events (response.created, message_start, …). */
  start(): Buffer[];
  chunk(chunk: JsonObject): Buffer[];
  /** The closing events, once the call is billed at `usage`. */
  finish(usage: ChatUsage): Buffer[];
}

/** Writes a dialect's frames; the first write names the dropped tools, the last what the call was metered at. */
export type DialectWrite = (events: Buffer[], usage?: MeteredUsage, dropped?: string[]) => Promise<void>;

/**
 * The ChunkDialect and the chunk writer for a dialect's stream. `beforeEnd` runs once the
 * closing events exist and before they are written (the Responses API stores the response there).
 */
export function dialectStream(
  events: DialectEvents,
  dropped: string[],
  write: DialectWrite,
  beforeEnd: () => Promise<void> = async () => undefined,
): { dialect: ChunkDialect; write: StreamWrite } {
  let started = false;
  const opening = (): Buffer[] => {
    if (started) return [];
    started = true;
    return events.start();
  };
  let named = false;
  return {
    dialect: {
      chunk: (chunk) => [...opening(), ...events.chunk(chunk)],
      end: async (usage) => {
        const closing = [...opening(), ...events.finish(usage)];
        await beforeEnd();
        return closing;
      },
    },
    write: (frames, usage) => {
      const first = named ? undefined : dropped;
      named = true;
      return write(frames, usage, first);
    },
  };
}
