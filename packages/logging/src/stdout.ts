import { pino } from 'pino';

// Standard output for log lines, written in batches.
//
// pino's default destination writes every line on its own, off the event loop: each line is a
// write handed to libuv's thread pool, whose thread wakes for it and then wakes the event loop to
// say it is done. That is a line per call (the access line), so two wake-ups per call; on a
// virtual machine whose idle vCPUs halt, a thread woken after a few milliseconds' sleep costs
// 0.1-0.2 ms of CPU (bench/RESULTS.md, "What a wake-up costs"). Here lines wait in the buffer
// until LOG_BUFFER_BYTES are there or LOG_FLUSH_MS have passed since the first of them, then go
// in one write: at 300 calls per second, one write per 10-15 lines instead of one per line.
// Lines still waiting when the process exits are written before it ends (pino flushes its
// destination on exit); after a kill -9, at most LOG_FLUSH_MS of lines are lost.

/** Bytes of lines that go out in one write at once (below sonic-boom's 16 KiB per write). */
export const LOG_BUFFER_BYTES = 8 * 1024;
/** How long the first line in the buffer waits at most for others before it is written. */
export const LOG_FLUSH_MS = 50;

export interface BufferedDestinationOptions {
  /** The file descriptor lines go to (default 1, standard output). */
  fd?: number;
  bufferBytes?: number;
  flushMs?: number;
}

/** A pino destination that writes its lines to `fd` in batches (see above). */
export function bufferedDestination(
  options: BufferedDestinationOptions = {},
): pino.DestinationStream & { flush(callback?: (error?: Error | null) => void): void } {
  const flushMs = options.flushMs ?? LOG_FLUSH_MS;
  const stream = pino.destination({ dest: options.fd ?? 1, sync: false, minLength: options.bufferBytes ?? LOG_BUFFER_BYTES });
  let timer: NodeJS.Timeout | undefined;
  // Also pino's `logger.flush(callback)`: the callback is called once what waited is written.
  const flush = (callback?: (error?: Error | null) => void) => {
    clearTimeout(timer);
    timer = undefined;
    try {
      stream.flush(callback);
    } catch (error) {
      // Ended at exit (pino wrote what waited), or destroyed: nothing is left to write.
      callback?.(error as Error);
    }
  };
  return {
    write(line: string) {
      stream.write(line);
      if (timer === undefined) {
        timer = setTimeout(() => flush(), flushMs);
        // A line waiting does not keep the process alive: pino writes it on exit.
        timer.unref();
      }
    },
    flush,
  };
}
