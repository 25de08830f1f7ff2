import type { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';

/** A response being watched for a caller that stopped reading. */
interface Watched {
  res: ServerResponse;
  socket: Socket;
  /** Bytes handed to the kernel at the last look, and since when that figure has not moved. */
  last: number;
  since: number;
  stallMs: number;
  onStall: () => void;
}

/** One sweep per check period for every watched response (a timer per stream would cost each call). */
interface Sweeper {
  watched: Set<Watched>;
  timer: NodeJS.Timeout | undefined;
}

const sweepers = new Map<number, Sweeper>();

/** Bytes handed to the kernel: written minus what still waits in the socket's own buffer. */
const sent = (socket: Socket) => socket.bytesWritten - socket.writableLength;

function sweep(sweeper: Sweeper): void {
  if (sweeper.watched.size === 0) {
    clearInterval(sweeper.timer);
    sweeper.timer = undefined;
    return;
  }
  const now = Date.now();
  for (const w of sweeper.watched) {
    const bytes = sent(w.socket);
    if (bytes !== w.last || w.socket.writableLength === 0) {
      w.last = bytes;
      w.since = now;
    } else if (now - w.since >= w.stallMs) {
      sweeper.watched.delete(w);
      w.onStall();
      w.res.destroy();
    }
  }
}

/**
 * Cuts a response whose caller has stopped reading: bytes wait to be sent and none has left for
 * `stallMs`. An upstream that is merely slow (a model thinking, a provider pausing) has nothing
 * waiting, so it is not a stall here; its own timeouts govern it. Paused readers would otherwise
 * hold a socket, a provider connection and buffers for as long as they like.
 */
export function cutWhenStalled(res: ServerResponse, stallMs: number, onStall: () => void): void {
  const socket = res.socket;
  if (!socket) return;
  const periodMs = Math.max(50, Math.min(stallMs / 4, 5000));
  let sweeper = sweepers.get(periodMs);
  if (!sweeper) {
    sweeper = { watched: new Set(), timer: undefined };
    sweepers.set(periodMs, sweeper);
  }
  const watched: Watched = { res, socket, last: sent(socket), since: Date.now(), stallMs, onStall };
  sweeper.watched.add(watched);
  if (!sweeper.timer) {
    const of = sweeper;
    sweeper.timer = setInterval(() => sweep(of), periodMs);
    sweeper.timer.unref();
  }
  const from = sweeper;
  res.once('close', () => from.watched.delete(watched));
}
