// Loaded into a process with `--import` (bench/timeline.mjs does it): notes when the process's
// HTTP server received a request, first wrote its answer, handed it to the socket and finished
// it, and when its undici
// requests to `…/chat/completions` went out, were answered and ended. The marks (milliseconds
// of CLOCK_MONOTONIC, the same clock in every process on the machine) go to stderr as
// `timeline <role> <event> <ms>` lines, gathered and written every 100 ms, off the call's path.
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import net from 'node:net';

const role = process.env.TIMELINE_ROLE ?? 'process';
/** @type {string[]} */
let lines = [];
const mark = (/** @type {string} */ event) => lines.push(`timeline ${role} ${event} ${Number(process.hrtime.bigint() / 1000n) / 1000}`);
setInterval(() => {
  if (lines.length === 0) return;
  process.stderr.write(`${lines.join('\n')}\n`);
  lines = [];
}, 100).unref();

dc.subscribe('http.server.request.start', () => mark('request'));
dc.subscribe('http.server.response.finish', () => mark('finish'));
// The first write of a response (headers with the first bytes, or the whole answer).
const written = new WeakSet();
/**
 * The prototypes patched below, as records of their methods.
 * @typedef {Record<string, (...args: unknown[]) => unknown>} Methods
 */
const responses = /** @type {Methods} */ (/** @type {unknown} */ (http.ServerResponse.prototype));
for (const method of ['write', 'end']) {
  const original = /** @type {(...args: unknown[]) => unknown} */ (responses[method]);
  responses[method] = function firstWrite(/** @type {unknown[]} */ ...args) {
    if (!written.has(this)) {
      written.add(this);
      mark('first-write');
    }
    return original.apply(this, args);
  };
}

// When the first bytes of a response reach the socket (Node may hold a write back to the next tick).
const sent = new WeakSet();
const sockets = /** @type {Methods} */ (/** @type {unknown} */ (net.Socket.prototype));
for (const method of ['_write', '_writev']) {
  const original = /** @type {(...args: unknown[]) => unknown} */ (sockets[method]);
  sockets[method] = function socketWrite(/** @type {unknown[]} */ ...args) {
    const response = /** @type {{ _httpMessage?: unknown }} */ (/** @type {unknown} */ (this))._httpMessage;
    if (response instanceof http.ServerResponse && !sent.has(response)) {
      sent.add(response);
      mark('socket-write');
    }
    return original.apply(this, args);
  };
}

/** @param {unknown} message an undici diagnostics message, `{ request: { path } }` */
const toUpstream = (message) => {
  const path = /** @type {{ request?: { path?: unknown } }} */ (message).request?.path;
  return typeof path === 'string' && path.endsWith('/chat/completions');
};
dc.subscribe('undici:client:sendHeaders', (message) => toUpstream(message) && mark('upstream-sent'));
dc.subscribe('undici:request:headers', (message) => toUpstream(message) && mark('upstream-answered'));
dc.subscribe('undici:request:trailers', (message) => toUpstream(message) && mark('upstream-ended'));
