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
let lines = [];
const mark = (event) => lines.push(`timeline ${role} ${event} ${Number(process.hrtime.bigint() / 1000n) / 1000}`);
setInterval(() => {
  if (lines.length === 0) return;
  process.stderr.write(`${lines.join('\n')}\n`);
  lines = [];
}, 100).unref();

dc.subscribe('http.server.request.start', () => mark('request'));
dc.subscribe('http.server.response.finish', () => mark('finish'));
// The first write of a response (headers with the first bytes, or the whole answer).
const written = new WeakSet();
for (const method of ['write', 'end']) {
  const original = http.ServerResponse.prototype[method];
  http.ServerResponse.prototype[method] = function firstWrite(...args) {
    if (!written.has(this)) {
      written.add(this);
      mark('first-write');
    }
    return original.apply(this, args);
  };
}

// When the first bytes of a response reach the socket (Node may hold a write back to the next tick).
const sent = new WeakSet();
for (const method of ['_write', '_writev']) {
  const original = net.Socket.prototype[method];
  net.Socket.prototype[method] = function socketWrite(...args) {
    const response = this._httpMessage;
    if (response instanceof http.ServerResponse && !sent.has(response)) {
      sent.add(response);
      mark('socket-write');
    }
    return original.apply(this, args);
  };
}

const toUpstream = (request) => typeof request?.path === 'string' && request.path.endsWith('/chat/completions');
dc.subscribe('undici:client:sendHeaders', ({ request }) => toUpstream(request) && mark('upstream-sent'));
dc.subscribe('undici:request:headers', ({ request }) => toUpstream(request) && mark('upstream-answered'));
dc.subscribe('undici:request:trailers', ({ request }) => toUpstream(request) && mark('upstream-ended'));
