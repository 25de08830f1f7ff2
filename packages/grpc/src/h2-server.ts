import { EventEmitter } from 'node:events';
import { lookup } from 'node:dns/promises';
import {
  constants as h2,
  createServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerOptions,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { isIP, type AddressInfo } from 'node:net';
import type * as grpc from '@grpc/grpc-js';
import { type Metadata, Status } from './grpc-js.js';
import {
  addMetadataHeaders,
  decodeTimeout,
  encodeStatusMessage,
  FrameError,
  frameMessage,
  GRPC_CONTENT_TYPE,
  MESSAGE_PREFIX_BYTES,
  MessageReader,
  metadataOfHeaders,
} from './h2-wire.js';
import { addServedMethods, statusOf, type ServedMethod } from './in-process.js';
import { channelOptions, MAX_MESSAGE_BYTES } from './options.js';

// The gateway's gRPC server for callers in other processes, on Node's http2 module: the same wire
// as grpc-js's server (any gRPC client reaches it), without grpc-js's per-call layers
// (interceptors, call trackers, channelz, a Writable per call), which cost most of a hop's CPU.
// Handlers get the call surface grpc-js gives them (request, metadata, sendMetadata, write with
// 'drain', end, 'error' carrying a status, 'cancelled', getDeadline, getPeer).

export interface H2EndpointOptions {
  /** Each connection gets a GOAWAY after about this long (±10%); channelOptions' max_connection_age_ms by default. */
  maxConnectionAgeMs?: number;
  /** How long calls still running on a connection past its age may go on before it is cut. */
  maxConnectionAgeGraceMs?: number;
}

const KEEPALIVE_TIME_MS = channelOptions['grpc.keepalive_time_ms'] ?? 30_000;
const KEEPALIVE_TIMEOUT_MS = channelOptions['grpc.keepalive_timeout_ms'] ?? 10_000;
/** Node's setTimeout limit; a longer wait (grpc-timeout goes up to 99999999H) would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The last stream id a first GOAWAY names, so calls the client is starting as it arrives are still served (as grpc-js does). */
const ANY_STREAM = 2 ** 31 - 1;
const MAX_AGE_REASON = Buffer.from('max_age');

const SERVER_OPTIONS: ServerOptions = {
  // In MB. Node counts data queued to send against it and refuses new streams beyond it; a few
  // 64 MiB messages under way on one connection must fit (Node's 10 MB default would not).
  maxSessionMemory: 1024,
  settings: {
    // What a client may send before we say we read it: 1 MiB a stream rather than 64 KiB, so a
    // request of several MiB (images) is not held back by a window update per 64 KiB.
    initialWindowSize: 1024 * 1024,
  },
};
/** The connection-wide receive window (every stream's data shares it). */
const SESSION_WINDOW_BYTES = 8 * 1024 * 1024;

// Header blocks built once: Node copies what it is given, so frozen objects can be shared.
const RESPONSE_HEADERS: OutgoingHttpHeaders = Object.freeze({
  ':status': 200,
  'content-type': GRPC_CONTENT_TYPE,
  'grpc-accept-encoding': 'identity',
});
const RESPONSE_OPTIONS = Object.freeze({ waitForTrailers: true, sendDate: false });
const END_OPTIONS = Object.freeze({ endStream: true, sendDate: false });
const OK_TRAILERS: OutgoingHttpHeaders = Object.freeze({ 'grpc-status': '0', 'grpc-message': 'OK' });
const STATUS_VALUES: readonly string[] = Array.from({ length: 17 }, (_, code) => String(code));

/** The call an HTTP/2 stream carries; the stream's listeners are shared functions that find it here. */
const CALL = Symbol('gateway.grpc.call');
type CallStream = ServerHttp2Stream & { [CALL]?: H2ServerCall };

function ignore(): void {}

/**
 * A GrpcServer's handlers served over HTTP/2 (gRPC's wire): listens on host:port, answers each
 * stream with its method's handler, ages connections out, and drains or cuts them on shutdown.
 */
export class H2Endpoint {
  readonly #methods = new Map<string, ServedMethod>();
  readonly #servers: Http2Server[] = [];
  readonly #sessions = new Map<ServerHttp2Session, SessionTimers>();
  readonly #maxAgeMs: number;
  readonly #maxAgeGraceMs: number;
  #state: 'serving' | 'draining' = 'serving';
  #running = 0;
  /** The deadlines of calls under way. */
  readonly deadlines = new Deadlines();
  #idleWaiters: (() => void)[] = [];
  #stopped: Promise<void> | undefined;
  readonly #onStream = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => this.#stream(stream, headers);
  readonly #onSession = (session: ServerHttp2Session) => this.#session(session);

  constructor(options: H2EndpointOptions = {}) {
    this.#maxAgeMs = options.maxConnectionAgeMs ?? channelOptions['grpc.max_connection_age_ms'] ?? Number.POSITIVE_INFINITY;
    this.#maxAgeGraceMs = options.maxConnectionAgeGraceMs ?? channelOptions['grpc.max_connection_age_grace_ms'] ?? Number.POSITIVE_INFINITY;
  }

  /** Registers a service's implemented methods; `answeredWhileDraining` ones are still served on a draining connection. */
  addService(definition: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation, answeredWhileDraining = false): void {
    addServedMethods(this.#methods, definition, implementation, answeredWhileDraining);
  }

  /** Connections open now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /**
   * Listens on `address`, host:port (IPv6 hosts in brackets; a name such as localhost on each of
   * its addresses, as grpc-js binds them); port 0 picks a free one. Resolves to the port. A port
   * already taken fails with code EADDRINUSE and `port`.
   */
  async listen(address: string): Promise<number> {
    if (this.#state !== 'serving') throw new Error(`a server shutting down cannot listen on ${address}`);
    const { host, port } = splitHostPort(address);
    const hosts = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true })).map((found) => found.address);
    let bound = port;
    let listening = 0;
    let firstError: unknown;
    for (const each of hosts) {
      try {
        bound = await this.#bind(each, bound);
        listening += 1;
      } catch (error) {
        firstError ??= error;
      }
    }
    if (listening === 0) {
      throw (firstError as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE'
        ? addressInUse(address, firstError)
        : (firstError ?? new Error(`${host} has no address to listen on`));
    }
    return bound;
  }

  async #bind(host: string, port: number): Promise<number> {
    const server = createServer(SERVER_OPTIONS);
    server.on('session', this.#onSession);
    server.on('stream', this.#onStream);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Whatever goes wrong on a listening server later is a connection's (told on its session).
    server.on('error', ignore);
    this.#servers.push(server);
    return (server.address() as AddressInfo).port;
  }

  /**
   * Stops accepting connections and sends GOAWAY on every one, so new calls are refused (clients
   * reconnect elsewhere) while calls under way finish. Resolves once every connection has closed.
   */
  drain(): Promise<void> {
    this.#state = 'draining';
    for (const session of this.#sessions.keys()) closeSession(session);
    this.#stopped ??= Promise.all(this.#servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(
      ignore,
    );
    return this.#stopped;
  }

  /** Resolves once no call runs. */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Destroys every connection: handlers see 'cancelled', callers UNAVAILABLE. */
  cutAll(): void {
    for (const session of this.#sessions.keys()) session.destroy();
  }

  /** A call of this endpoint ended (answered, failed or cancelled). */
  callEnded(): void {
    this.#running -= 1;
    if (this.#running > 0 || this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #session(session: ServerHttp2Session): void {
    // A client that vanishes (reset, bad frames) is its own business: nothing to log or throw.
    session.on('error', ignore);
    const timers: SessionTimers = { age: undefined, grace: undefined, keepalive: undefined, pingTimeout: undefined };
    this.#sessions.set(session, timers);
    session.once('close', () => {
      clearTimeout(timers.age);
      clearTimeout(timers.grace);
      clearInterval(timers.keepalive);
      clearTimeout(timers.pingTimeout);
      this.#sessions.delete(session);
    });
    if (this.#state !== 'serving') {
      closeSession(session);
      return;
    }
    try {
      session.setLocalWindowSize(SESSION_WINDOW_BYTES);
    } catch {
      // Only fails on a session already gone.
    }
    if (Number.isFinite(this.#maxAgeMs)) {
      // ±10% so the connections of a client (or of many clients started together) do not all go at once.
      const age = this.#maxAgeMs * (0.9 + Math.random() * 0.2);
      timers.age = setTimeout(ageReached, age, session, timers, this.#maxAgeGraceMs);
      timers.age.unref();
    }
    // Pings find a peer that vanished without closing its socket, so its calls end.
    timers.keepalive = setInterval(keepalive, KEEPALIVE_TIME_MS, session, timers);
    timers.keepalive.unref();
  }

  #stream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', ignore);
    // gRPC's own checks first, as grpc-go makes them: not gRPC at all (415), not a POST (405).
    const contentType = headers['content-type'];
    if (contentType === undefined || !contentType.startsWith(GRPC_CONTENT_TYPE)) {
      earlyAbort(stream, 415, Status.INVALID_ARGUMENT, `invalid gRPC request content-type "${contentType ?? ''}"`);
      return;
    }
    const method = headers[':method'];
    if (method !== 'POST') {
      earlyAbort(stream, 405, Status.INTERNAL, `Received a HEADERS frame with :method "${method ?? ''}" which should be POST`);
      return;
    }
    const path = headers[':path'] ?? '';
    const served = this.#methods.get(path);
    if (this.#state !== 'serving' && served?.answeredWhileDraining !== true) {
      // Not processed: the client may send it again elsewhere (it gets UNAVAILABLE).
      stream.close(h2.NGHTTP2_REFUSED_STREAM);
      return;
    }
    if (served === undefined) {
      earlyAbort(stream, 200, Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
      return;
    }
    let timeoutMs = Number.POSITIVE_INFINITY;
    const timeout = headers['grpc-timeout'];
    if (typeof timeout === 'string') {
      const decoded = decodeTimeout(timeout);
      if (decoded === undefined) {
        earlyAbort(stream, 200, Status.INTERNAL, `Invalid grpc-timeout value "${timeout}"`);
        return;
      }
      timeoutMs = decoded;
    }
    this.#running += 1;
    if (served.kind === 'unary') new H2ServerUnaryCall(this, served, stream, headers, timeoutMs);
    else new H2ServerStreamCall(this, served, stream, headers, timeoutMs);
  }
}

/** What has a deadline: a call, linked into the endpoint's list of them. */
interface Timed {
  /** performance.now() time it expires at. */
  readonly expiresAt: number;
  earlier: Timed | undefined;
  later: Timed | undefined;
  listed: boolean;
  expire(): void;
}

/**
 * The deadlines of the calls under way, soonest first, behind one Node timer. A timer per call
 * (with a duration of its own, as grpc-timeout values vary by the millisecond) costs a good part
 * of a call's CPU; here a call is linked in and out of a list, allocating nothing. Calls with the
 * same timeout arrive in deadline order, so linking one in is a step from the latest.
 */
class Deadlines {
  #first: Timed | undefined;
  #last: Timed | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires; it may be for a call that has ended since (it then re-arms for the first). */
  #timerAt = Number.POSITIVE_INFINITY;
  readonly #fire = () => this.#expire();

  add(item: Timed): void {
    let before = this.#last;
    while (before !== undefined && before.expiresAt > item.expiresAt) before = before.earlier;
    const after = before === undefined ? this.#first : before.later;
    item.earlier = before;
    item.later = after;
    if (before === undefined) this.#first = item;
    else before.later = item;
    if (after === undefined) this.#last = item;
    else after.earlier = item;
    item.listed = true;
    if (item.expiresAt < this.#timerAt) this.#arm(item.expiresAt);
  }

  remove(item: Timed): void {
    if (!item.listed) return;
    item.listed = false;
    if (item.earlier === undefined) this.#first = item.later;
    else item.earlier.later = item.later;
    if (item.later === undefined) this.#last = item.earlier;
    else item.later.earlier = item.earlier;
    item.earlier = undefined;
    item.later = undefined;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(this.#fire, Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - performance.now()))));
    this.#timer.unref();
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    // Within a millisecond is due: Node's timers count whole milliseconds from the loop's clock.
    const now = performance.now() + 1;
    for (let first = this.#first; first !== undefined && first.expiresAt <= now; first = this.#first) {
      this.remove(first);
      first.expire();
    }
    if (this.#first !== undefined) this.#arm(this.#first.expiresAt);
  }
}

interface SessionTimers {
  age: NodeJS.Timeout | undefined;
  grace: NodeJS.Timeout | undefined;
  keepalive: NodeJS.Timeout | undefined;
  pingTimeout: NodeJS.Timeout | undefined;
}

/** GOAWAY: no new streams on this connection; those under way finish, then it closes. */
function closeSession(session: ServerHttp2Session): void {
  if (!session.closed && !session.destroyed) session.close();
}

function ageReached(session: ServerHttp2Session, timers: SessionTimers, graceMs: number): void {
  if (session.closed || session.destroyed) return;
  try {
    session.goaway(h2.NGHTTP2_NO_ERROR, ANY_STREAM, MAX_AGE_REASON);
  } catch {
    session.destroy();
    return;
  }
  session.close();
  if (Number.isFinite(graceMs)) {
    timers.grace = setTimeout(destroySession, graceMs, session);
    timers.grace.unref();
  }
}

function destroySession(session: ServerHttp2Session): void {
  session.destroy();
}

function keepalive(session: ServerHttp2Session, timers: SessionTimers): void {
  if (timers.pingTimeout !== undefined || session.closed || session.destroyed) return;
  try {
    if (!session.ping((error) => pinged(timers, error))) return;
  } catch {
    return;
  }
  timers.pingTimeout = setTimeout(destroySession, KEEPALIVE_TIMEOUT_MS, session);
  timers.pingTimeout.unref();
}

function pinged(timers: SessionTimers, _error: Error | null): void {
  // An error means the session is gone, and its close clears everything anyway.
  clearTimeout(timers.pingTimeout);
  timers.pingTimeout = undefined;
}

/** A trailers-only answer before any call starts (HTTP status as grpc-go gives it for non-gRPC requests). */
function earlyAbort(stream: ServerHttp2Stream, httpStatus: number, code: Status, details: string): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond(
    {
      ':status': httpStatus,
      'content-type': GRPC_CONTENT_TYPE,
      'grpc-status': STATUS_VALUES[code] ?? String(code),
      'grpc-message': encodeStatusMessage(details),
    },
    END_OPTIONS,
  );
  // The request may still be coming: say it need not (RST_STREAM NO_ERROR after the answer, as grpc-go does).
  if (!stream.endAfterHeaders) stream.close(h2.NGHTTP2_NO_ERROR);
}

/** grpc-status and grpc-message, then the trailing metadata. */
function statusTrailers(code: Status, details: string, metadata: Metadata | undefined): OutgoingHttpHeaders {
  if (code === Status.OK && metadata === undefined) return OK_TRAILERS;
  const trailers: OutgoingHttpHeaders = {
    'grpc-status': STATUS_VALUES[code] ?? String(code),
    'grpc-message': encodeStatusMessage(details),
  };
  return metadata === undefined ? trailers : addMetadataHeaders(trailers, metadata);
}

/** Reads messages a whole DATA chunk holds, so the usual one-chunk request needs no reader of its own (this one keeps no state). */
const WHOLE_CHUNK_READER = new MessageReader(MAX_MESSAGE_BYTES);

function isWholeMessage(chunk: Buffer): boolean {
  return chunk.length >= MESSAGE_PREFIX_BYTES && chunk.readUInt32BE(1) === chunk.length - MESSAGE_PREFIX_BYTES;
}

function onData(this: CallStream, chunk: Buffer): void {
  this[CALL]?.receive(chunk);
}

function onEnd(this: CallStream): void {
  this[CALL]?.halfClosed();
}

function onClose(this: CallStream): void {
  this[CALL]?.closed();
}

function onDrain(this: CallStream): void {
  this[CALL]?.drained();
}

function onWantTrailers(this: CallStream): void {
  const trailers = this[CALL]?.takeTrailers();
  // None set: Node is ending a stream the client already closed, where there is nothing to send.
  if (trailers !== undefined && !this.destroyed && !this.closed) this.sendTrailers(trailers);
}

function notifyCancelled(call: H2ServerCall): void {
  call.cancelled = true;
  call.emit('cancelled', 'cancelled');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The handler's side of a call over an HTTP/2 stream: what grpc-js's ServerUnaryCall and
 * ServerWritableStream offer the gateway's handlers.
 */
abstract class H2ServerCall extends EventEmitter implements Timed {
  cancelled = false;
  request: unknown = undefined;
  // Its place among the endpoint's deadlines (see Deadlines).
  readonly expiresAt: number;
  earlier: Timed | undefined = undefined;
  later: Timed | undefined = undefined;
  listed = false;
  protected readonly served: ServedMethod;
  readonly #endpoint: H2Endpoint;
  readonly #stream: CallStream;
  readonly #headers: IncomingHttpHeaders;
  #metadata: Metadata | undefined;
  /** Set once a request is split over DATA chunks (the usual one-chunk request needs none). */
  #reader: MessageReader | undefined;
  #requestBytes: Buffer | undefined;
  #halfClosed = false;
  #headersSent = false;
  #trailers: OutgoingHttpHeaders | undefined;
  #drainHooked = false;
  #ended = false;

  constructor(endpoint: H2Endpoint, served: ServedMethod, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, timeoutMs: number) {
    super();
    this.#endpoint = endpoint;
    this.served = served;
    this.#stream = stream;
    this.#headers = headers;
    this.expiresAt = performance.now() + timeoutMs;
    if (timeoutMs !== Number.POSITIVE_INFINITY) endpoint.deadlines.add(this);
    this.#stream[CALL] = this;
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('close', onClose);
  }

  /** Over: answered, failed, cancelled or past its deadline; nothing more reaches the caller. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The request's metadata, read off its headers when a handler first asks. */
  get metadata(): Metadata {
    this.#metadata ??= metadataOfHeaders(this.#headers);
    return this.#metadata;
  }

  receive(chunk: Buffer): void {
    if (this.#ended) return;
    let messages: Buffer[];
    try {
      if (this.#reader === undefined && isWholeMessage(chunk)) {
        messages = WHOLE_CHUNK_READER.push(chunk);
      } else {
        this.#reader ??= new MessageReader(MAX_MESSAGE_BYTES);
        messages = this.#reader.push(chunk);
      }
    } catch (error) {
      this.#unreadable(error);
      return;
    }
    for (const message of messages) {
      if (this.#requestBytes !== undefined) {
        // grpc-js's words, whichever kind the method is.
        this.abort(Status.UNIMPLEMENTED, `Received a second request message for server streaming method ${this.served.definition.path}`);
        return;
      }
      this.#requestBytes = message;
    }
  }

  #unreadable(error: unknown): void {
    if (!(error instanceof FrameError)) {
      this.abort(Status.INTERNAL, messageOf(error));
      return;
    }
    // A compressed message (the only INTERNAL a frame gives) in an encoding the client named: what grpc-js says of one it cannot read.
    const encoding = this.#headers['grpc-encoding'];
    if (error.status === Status.INTERNAL && typeof encoding === 'string' && encoding !== 'identity') {
      this.abort(Status.UNIMPLEMENTED, `Received message compressed with unsupported encoding "${encoding}"`);
    } else {
      this.abort(error.status, error.message);
    }
  }

  /** The client sent all it sends: read the request and run the handler. */
  halfClosed(): void {
    this.#halfClosed = true;
    if (this.#ended) return;
    const bytes = this.#requestBytes;
    if (bytes === undefined) {
      this.abort(Status.UNIMPLEMENTED, `Received no request message for server streaming method ${this.served.definition.path}`);
      return;
    }
    this.#requestBytes = undefined;
    this.#reader = undefined;
    try {
      this.request = this.served.definition.requestDeserialize(bytes);
    } catch (error) {
      this.abort(Status.INTERNAL, `Error deserializing request: ${messageOf(error)}`);
      return;
    }
    try {
      this.invoke();
    } catch {
      this.abort(Status.UNKNOWN, 'Unknown error');
    }
  }

  protected abstract invoke(): void;

  /** Its deadline passed. */
  expire(): void {
    this.abort(Status.DEADLINE_EXCEEDED, 'Deadline exceeded');
  }

  /** The stream closed: if the call had not ended, the client reset it or its connection went. */
  closed(): void {
    if (!this.#end()) return;
    process.nextTick(notifyCancelled, this);
  }

  drained(): void {
    if (!this.#ended) this.emit('drain');
  }

  takeTrailers(): OutgoingHttpHeaders | undefined {
    const trailers = this.#trailers;
    this.#trailers = undefined;
    return trailers;
  }

  sendMetadata(metadata: Metadata): void {
    if (this.#ended || this.#headersSent || this.#gone()) return;
    this.#respond(metadata);
  }

  getDeadline(): grpc.Deadline {
    return performance.timeOrigin + this.expiresAt;
  }

  getPath(): string {
    return this.served.definition.path;
  }

  getPeer(): string {
    const socket = this.#stream.session?.socket;
    if (socket?.remoteAddress === undefined) return 'unknown';
    return socket.remotePort === undefined ? socket.remoteAddress : `${socket.remoteAddress}:${socket.remotePort}`;
  }

  getHost(): string {
    return this.#headers[':authority'] ?? this.#headers.host ?? '';
  }

  #respond(metadata: Metadata | undefined): void {
    this.#headersSent = true;
    const stream = this.#stream;
    stream.on('wantTrailers', onWantTrailers);
    stream.respond(metadata === undefined ? RESPONSE_HEADERS : addMetadataHeaders({ ...RESPONSE_HEADERS }, metadata), RESPONSE_OPTIONS);
  }

  /** A response framed for the wire; undefined when it cannot go (the call is then ended). */
  #frame(message: unknown): Buffer | undefined {
    let bytes: Buffer;
    try {
      bytes = this.served.definition.responseSerialize(message);
    } catch (error) {
      this.abort(Status.INTERNAL, `Error serializing response: ${messageOf(error)}`);
      return undefined;
    }
    if (bytes.length > MAX_MESSAGE_BYTES) {
      this.abort(Status.RESOURCE_EXHAUSTED, `Sent message larger than max (${bytes.length} vs. ${MAX_MESSAGE_BYTES})`);
      return undefined;
    }
    return frameMessage(bytes);
  }

  /** Writes a response; false when the call ended instead or the stream's buffer is full (wait for 'drain'). */
  protected send(message: unknown): boolean {
    if (this.#ended || this.#gone()) return false;
    const framed = this.#frame(message);
    if (framed === undefined) return false;
    if (!this.#headersSent) this.#respond(undefined);
    if (this.#stream.write(framed)) return true;
    if (!this.#drainHooked) {
      this.#drainHooked = true;
      this.#stream.on('drain', onDrain);
    }
    return false;
  }

  /** Answers a unary call: its one message, then OK with the handler's trailing metadata, in one go. */
  protected answer(message: unknown, trailer: Metadata | undefined): void {
    if (this.#ended || this.#gone()) return;
    const framed = this.#frame(message);
    if (framed === undefined || !this.#end()) return;
    if (!this.#headersSent) this.#respond(undefined);
    this.#trailers = statusTrailers(Status.OK, 'OK', trailer);
    this.#stream.end(framed);
  }

  /** Ends the call with the handler's status. */
  finish(code: Status, details: string, metadata: Metadata | undefined): void {
    if (this.#end()) this.#sendStatus(code, details, metadata);
  }

  /** Ends the call without the handler's answer (deadline, a request it cannot read, a response it cannot send): the handler sees 'cancelled'. */
  abort(code: Status, details: string): void {
    if (!this.#end()) return;
    this.#sendStatus(code, details, undefined);
    // Told on the next tick, as grpc-js tells it.
    process.nextTick(notifyCancelled, this);
  }

  /** Ends a failed call with the status its error names. */
  fail(error: grpc.ServerErrorResponse | Partial<grpc.StatusObject>, trailer?: Metadata): void {
    if (this.#ended) return;
    const status = statusOf(error, trailer);
    this.finish(status.code, status.details, status.metadata);
  }

  #sendStatus(code: Status, details: string, metadata: Metadata | undefined): void {
    const stream = this.#stream;
    if (stream.destroyed || stream.closed) return;
    if (this.#headersSent) {
      this.#trailers = statusTrailers(code, details, metadata);
      stream.end();
      return;
    }
    // Trailers-only: nothing was sent yet, so the status goes in the one header block.
    const headers: OutgoingHttpHeaders = {
      ':status': 200,
      'content-type': GRPC_CONTENT_TYPE,
      'grpc-status': STATUS_VALUES[code] ?? String(code),
      'grpc-message': encodeStatusMessage(details),
    };
    this.#headersSent = true;
    stream.respond(metadata === undefined ? headers : addMetadataHeaders(headers, metadata), END_OPTIONS);
    // A request still coming (too large, or past its deadline) need not be sent on.
    if (!this.#halfClosed) stream.close(h2.NGHTTP2_NO_ERROR);
  }

  /** The client reset the stream or its connection went, and Node has not said so yet ('close' comes on a later tick): ends the call as cancelled. */
  #gone(): boolean {
    if (!this.#stream.destroyed && !this.#stream.closed) return false;
    this.closed();
    return true;
  }

  #end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    if (this.listed) this.#endpoint.deadlines.remove(this);
    this.#endpoint.callEnded();
    return true;
  }
}

class H2ServerUnaryCall extends H2ServerCall {
  protected invoke(): void {
    if (this.served.kind !== 'unary') return;
    // The one closure a unary call needs: the handler's callback knows nothing else of its call.
    this.served.handler(this as unknown as grpc.ServerUnaryCall<unknown, unknown>, (error, value, trailer) => {
      if (error) this.fail(error, trailer);
      else this.answer(value, trailer);
    });
  }
}

/** Also a writable stream of responses: write() says when to wait for 'drain', end() finishes, an 'error' event fails. */
class H2ServerStreamCall extends H2ServerCall {
  constructor(...args: ConstructorParameters<typeof H2ServerCall>) {
    super(...args);
    // grpc-js turns an 'error' event carrying a status into the call's final status.
    this.on('error', failServerStream);
  }

  protected invoke(): void {
    if (this.served.kind !== 'serverStream') return;
    this.served.handler(this as unknown as grpc.ServerWritableStream<unknown, unknown>);
  }

  write(message: unknown): boolean {
    return this.send(message);
  }

  end(metadata?: Metadata): void {
    this.finish(Status.OK, 'OK', metadata);
  }
}

function failServerStream(this: H2ServerStreamCall, error: grpc.ServerErrorResponse | Partial<grpc.StatusObject>): void {
  this.fail(error);
}

/** host and port of host:port or [v6]:port. */
function splitHostPort(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  const portText = address.slice(colon + 1);
  let host = address.slice(0, colon);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const port = Number(portText);
  if (colon <= 0 || portText === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`a gRPC listen address is host:port, not ${JSON.stringify(address)}`);
  }
  return { host, port };
}

/** The error listen() gives for a port already taken, as Node's own listen words it (code EADDRINUSE, with `port`). */
export function addressInUse(address: string, cause: unknown): Error & { code: 'EADDRINUSE'; port: number } {
  const taken = Number(address.slice(address.lastIndexOf(':') + 1));
  return Object.assign(new Error(`listen EADDRINUSE: address already in use ${address}`, { cause }), {
    code: 'EADDRINUSE' as const,
    port: taken,
  });
}
