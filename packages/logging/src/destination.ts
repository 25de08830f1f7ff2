import { pino } from 'pino';

// Standard output for log lines: pino's asynchronous destination (sonic-boom), which gathers
// lines until `minLength` bytes wait and then writes them in one go, off the event loop. One
// write per batch instead of one per line saves the thread-pool wake-ups a line each would cost
// (bench/history/2026-11-28-results-diary.md, "What a wake-up costs"). pino writes what waits
// when the process exits.
//
// Two things are added around it. sonic-boom writes a short batch only when flushed, so a timer
// flushes it LOG_FLUSH_MS after a line arrives (a lone "ready" line is not held back). And its
// exit flush retries a closed pipe (EPIPE) for ever, so a process whose reader had gone would
// never exit: at exit the stream is switched to synchronous writes and flushed first, which
// meets EPIPE as an error pino's own handler answers by dropping further lines. A full pipe
// (EAGAIN) is retried at exit for EXIT_WAIT_MS at most, then the lines are given up.

/** Bytes of lines that go out in one write at once. */
export const LOG_BUFFER_BYTES = 8 * 1024;
/** How long a line waits at most for others before it is written. */
export const LOG_FLUSH_MS = 50;

/** How long the exit flush keeps trying a full pipe before it gives the lines up. */
const EXIT_WAIT_MS = 2000;

export interface BufferedDestinationOptions {
  /** The file descriptor lines go to (default 1, standard output). */
  fd?: number;
  bufferBytes?: number;
  flushMs?: number;
}

type SonicBoom = ReturnType<typeof pino.destination>;

export interface BufferedDestination {
  write(line: string): void;
  /** Writes what waits; also pino's `logger.flush(callback)`. */
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

/** Every open destination, flushed at exit by one listener added before pino's own. */
const open = new Set<SonicBoom>();
/** Until the process exits, a full pipe is retried for as long as it takes. */
let giveUpAt = Number.POSITIVE_INFINITY;
const retryEAGAIN = () => Date.now() < giveUpAt;
process.once('exit', () => {
  giveUpAt = Date.now() + EXIT_WAIT_MS;
  for (const stream of open) {
    // `sync` is read on every write: synchronous, a closed pipe fails once instead of looping.
    (stream as unknown as { sync: boolean }).sync = true;
    try {
      stream.flush();
      // What is left below minLength; after EPIPE, pino has made this a no-op.
      stream.flushSync();
    } catch {
      // A pipe still full, or a destroyed stream: pino's exit flush would only try again.
      stream.flushSync = () => undefined;
    }
  }
});

/** A pino destination that writes its lines to `fd` in batches (see above). */
export function bufferedDestination(options: BufferedDestinationOptions = {}): BufferedDestination {
  const flushMs = options.flushMs ?? LOG_FLUSH_MS;
  const minLength = options.bufferBytes ?? LOG_BUFFER_BYTES;
  const stream = pino.destination({ dest: options.fd ?? 1, sync: false, minLength, retryEAGAIN });
  open.add(stream);
  stream.on('close', () => open.delete(stream));
  let armed = false;
  /** Lines written so far, and as many as had been when a write last ended. */
  let lines = 0;
  let linesAtDrain = 0;
  const onTimer = () => {
    armed = false;
    stream.flush();
  };
  const arm = () => {
    // A line waiting does not keep the process alive: the exit flush writes it.
    if (armed) return;
    armed = true;
    setTimeout(onTimer, flushMs).unref();
  };
  // sonic-boom drops a flush asked while a write is under way: once a write ends, lines that
  // came since the previous one ended get a flush of their own.
  stream.on('drain', () => {
    if (lines === linesAtDrain) return;
    linesAtDrain = lines;
    arm();
  });
  return {
    write(line: string) {
      stream.write(line);
      lines += 1;
      arm();
    },
    // sonic-boom fsyncs after a flush; a pipe or terminal cannot be (EINVAL), and need not be.
    flush: (callback) => stream.flush(callback && ((error) => callback(isEinval(error) ? undefined : error))),
    flushSync: () => stream.flushSync(),
  };
}

function isEinval(error: Error | undefined): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EINVAL';
}
