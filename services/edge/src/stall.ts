import type { ServerResponse } from 'node:http';

/**
 * Cuts a response whose caller has stopped reading: bytes wait to be sent and none has left for
 * `stallMs`. An upstream that is merely slow (a model thinking, a provider pausing) has nothing
 * waiting, so it is not a stall here; its own timeouts govern it. Paused readers would otherwise
 * hold a socket, a provider connection and buffers for as long as they like.
 */
export function cutWhenStalled(res: ServerResponse, stallMs: number, onStall: () => void): void {
  const socket = res.socket;
  if (!socket) return;
  // Bytes handed to the kernel: written minus what still waits in the socket's own buffer.
  const sent = () => socket.bytesWritten - socket.writableLength;
  let last = sent();
  let since = Date.now();
  const timer = setInterval(
    () => {
      const now = sent();
      if (now !== last || socket.writableLength === 0) {
        last = now;
        since = Date.now();
        return;
      }
      if (Date.now() - since < stallMs) return;
      clearInterval(timer);
      onStall();
      res.destroy();
    },
    Math.max(50, Math.min(stallMs / 4, 5000)),
  );
  timer.unref();
  res.once('close', () => clearInterval(timer));
}
