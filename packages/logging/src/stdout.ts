import { write, writeSync } from 'node:fs';

// Standard output for log lines, written in batches.
//
// pino's default destination writes every line on its own, off the event loop: each line is a
// write handed to libuv's thread pool, whose thread wakes for it and then wakes the event loop to
// say it is done. That is a line per call (the access line), so two wake-ups per call; on a
// virtual machine whose idle vCPUs halt, a thread woken after a few milliseconds' sleep costs
// 0.1-0.2 ms of CPU (bench/RESULTS.md, "What a wake-up costs"). Here lines wait in the buffer
// until LOG_BUFFER_BYTES are there or LOG_FLUSH_MS have passed since the first of them, then go
// in one write: at 300 calls per second, one write per 10-15 lines instead of one per line.
// Lines still waiting when the process exits are written before it ends; after a kill -9, at
// most LOG_FLUSH_MS of lines are lost.
//
// The buffer is this module's own, not sonic-boom's `minLength` (pino.destination): there, a
// flush that came while a write was under way was dropped, so lines logged meanwhile waited for
// the next line however long that took (a gateway idle after its start never said it was
// ready), and its exit flush retried a closed pipe (EPIPE) for ever, so a process whose reader
// had gone never exited.

/** Bytes of lines that go out in one write at once. */
export const LOG_BUFFER_BYTES = 8 * 1024;
/** How long the first line in the buffer waits at most for others before it is written. */
export const LOG_FLUSH_MS = 50;
/** A full pipe (EAGAIN) is tried again after this. */
const RETRY_MS = 10;
/** How long the exit flush keeps trying a full pipe before it gives the lines up. */
const EXIT_WAIT_MS = 2000;

export interface BufferedDestinationOptions {
  /** The file descriptor lines go to (default 1, standard output). */
  fd?: number;
  bufferBytes?: number;
  flushMs?: number;
}

export interface BufferedDestination {
  write(line: string): void;
  /** Writes what waits; also pino's `logger.flush(callback)`, called back once it is written. */
  flush(callback?: (error?: Error | null) => void): void;
  /** Writes what waits before the call returns (the process's exit). */
  flushSync(): void;
}

/** Every destination, its waiting lines written when the process exits (one listener for all). */
const open = new Set<BufferedDestination>();
let exitHooked = false;

/** A pino destination that writes its lines to `fd` in batches (see above). */
export function bufferedDestination(options: BufferedDestinationOptions = {}): BufferedDestination {
  const fd = options.fd ?? 1;
  const flushMs = options.flushMs ?? LOG_FLUSH_MS;
  const bufferBytes = options.bufferBytes ?? LOG_BUFFER_BYTES;
  /** Lines not yet handed to a write, and their length in UTF-16 units (bytes for ASCII). */
  let waiting: string[] = [];
  let waitingLength = 0;
  /** The write under way, if any: the next one starts when it is done. */
  let writing = false;
  /** Callbacks of flushes, called once what waited when they were asked for is written. */
  let callbacks: ((error?: Error | null) => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  /** What a full pipe refused (EAGAIN), tried again shortly: the exit flush writes it first. */
  let refused: { bytes: Buffer; offset: number } | undefined;
  /** Set once the descriptor refused a write for good (a closed pipe): lines are dropped. */
  let broken: Error | undefined;

  const settle = (error: Error | null) => {
    const done = callbacks;
    callbacks = [];
    for (const callback of done) callback(error);
  };

  const take = (): Buffer => {
    const bytes = Buffer.from(waiting.join(''), 'utf8');
    waiting = [];
    waitingLength = 0;
    return bytes;
  };

  /** Writes `bytes` from `offset`, then whatever waits by then, one write at a time. */
  const writeOut = (bytes: Buffer, offset: number) => {
    writing = true;
    write(fd, bytes, offset, bytes.length - offset, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          // The reader is behind: the rest goes a little later, and lines keep gathering.
          refused = { bytes, offset };
          setTimeout(() => {
            if (refused?.bytes !== bytes) return;
            refused = undefined;
            writeOut(bytes, offset);
          }, RETRY_MS).unref();
          return;
        }
        broken = error;
        writing = false;
        waiting = [];
        waitingLength = 0;
        settle(error);
        return;
      }
      if (offset + written < bytes.length) {
        writeOut(bytes, offset + written);
        return;
      }
      writing = false;
      if (waitingLength >= bufferBytes || (callbacks.length > 0 && waitingLength > 0)) startWrite();
      else {
        if (waitingLength > 0) arm();
        settle(null);
      }
    });
  };

  const startWrite = () => {
    clearTimeout(timer);
    timer = undefined;
    if (writing || broken || waitingLength === 0) return;
    writeOut(take(), 0);
  };

  const arm = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      startWrite();
    }, flushMs);
    // A line waiting does not keep the process alive: the exit flush writes it.
    timer.unref();
  };

  const destination: BufferedDestination = {
    write(line: string) {
      if (broken) return;
      waiting.push(line);
      waitingLength += line.length;
      if (waitingLength >= bufferBytes) startWrite();
      else arm();
    },
    flush(callback) {
      if (broken) {
        callback?.(broken);
        return;
      }
      if (callback) {
        if (!writing && waitingLength === 0) {
          callback(null);
          return;
        }
        callbacks.push(callback);
      }
      startWrite();
    },
    flushSync() {
      clearTimeout(timer);
      timer = undefined;
      if (broken || (waitingLength === 0 && !refused)) return;
      // A write under way in the thread pool finishes on its own; what waits goes after it,
      // behind what a full pipe refused last.
      const left = refused ? refused.bytes.subarray(refused.offset) : undefined;
      refused = undefined;
      const rest = take();
      const bytes = left ? Buffer.concat([left, rest]) : rest;
      const giveUpAt = Date.now() + EXIT_WAIT_MS;
      for (let offset = 0; offset < bytes.length; ) {
        try {
          offset += writeSync(fd, bytes, offset, bytes.length - offset);
        } catch (error) {
          // A full pipe is waited for a while; anything else (the reader gone) ends the flush.
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > giveUpAt) return;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
        }
      }
    },
  };
  open.add(destination);
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const waitingDestination of [...open]) waitingDestination.flushSync();
    });
  }
  return destination;
}
