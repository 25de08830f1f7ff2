import * as dns from 'node:dns';
import { EventEmitter } from 'node:events';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import { Readable } from 'node:stream';
import type * as grpc from '@grpc/grpc-js';
import { Metadata, Status } from './grpc-js.js';
import {
  addMetadataHeaders,
  encodeTimeout,
  FrameError,
  frameMessage,
  GRPC_CONTENT_TYPE,
  MESSAGE_PREFIX_BYTES,
  MessageReader,
  metadataOfHeaders,
  serviceError,
  statusOfHttpStatus,
  statusOfTrailers,
  unaryArguments,
} from './h2-wire.js';
import { channelOptions, MAX_MESSAGE_BYTES } from './options.js';

// The gateway's gRPC client on Node's http2 module: the wire grpc-js speaks (the h2-wire
// helpers), and what grpc-js's channel does for the gateway, without its layers (interceptors,
// filter stack, resolver and balancer objects, channelz) on every call.
//
// - A target resolves to every address behind it (dns.promises.lookup, all: true; IP literals
//   and ipv4:/ipv6: lists need none). Each address gets one HTTP/2 session; calls go round robin
//   over the sessions that are up, as grpc-js's round_robin spreads them.
// - Connections are made lazily, on the first call (as grpc-js's channel leaves IDLE), and kept
//   up from then on: a session that ends (GOAWAY from the server's connection age, an error, a
//   keepalive timeout) is replaced at once and the name looked up again, so replicas added
//   behind a headless Service are reached. A failed attempt is retried with jittered backoff.
// - While every address is failing (grpc-js's TRANSIENT_FAILURE) calls fail at once with
//   UNAVAILABLE, which unary() retries; while a first attempt is under way they wait for it,
//   never past their deadline.
// - Each client object has sessions of its own, never shared with another client (as grpc-js
//   with 'grpc.use_local_subchannel_pool'): closing a client ends its connections.

/** Settings a test may shorten; every default is the production value (channelOptions). */
export interface H2ClientOptions {
  /** Time between keepalive pings on each session. */
  keepaliveTimeMs?: number;
  /** Time a ping may go unacknowledged before the session is dropped. */
  keepaliveTimeoutMs?: number;
  /** Time a connection attempt may take, up to the server's SETTINGS. */
  connectTimeoutMs?: number;
}

const {
  NGHTTP2_CANCEL,
  NGHTTP2_ENHANCE_YOUR_CALM,
  NGHTTP2_FLAG_END_STREAM,
  NGHTTP2_INADEQUATE_SECURITY,
  NGHTTP2_INTERNAL_ERROR,
  NGHTTP2_NO_ERROR,
  NGHTTP2_REFUSED_STREAM,
} = http2.constants;

const KEEPALIVE_TIME_MS = channelOptions['grpc.keepalive_time_ms'] ?? 30_000;
const KEEPALIVE_TIMEOUT_MS = channelOptions['grpc.keepalive_timeout_ms'] ?? 10_000;
const FIRST_BACKOFF_MS = channelOptions['grpc.min_reconnect_backoff_ms'] ?? 100;
const MAX_BACKOFF_MS = channelOptions['grpc.max_reconnect_backoff_ms'] ?? 2000;
const BACKOFF_MULTIPLIER = 1.6;
const BACKOFF_JITTER = 0.2;
/** grpc-js's minimum connect timeout. */
const CONNECT_TIMEOUT_MS = 20_000;
/** Lookups again on session ends are at most this often (a flapping server does not flood DNS). */
const MIN_RESOLVE_INTERVAL_MS = 1000;
/** Longer than setTimeout can wait: such a deadline gets no local timer (grpc-js treats it as none). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const USER_AGENT = `gateway-grpc-h2 node/${process.versions.node}`;
const TOO_MANY_PINGS = Buffer.from('too_many_pings');

const SESSION_OPTIONS: http2.ClientSessionOptions = {
  settings: { enablePush: false },
  // Node refuses streams (ENHANCE_YOUR_CALM) once a session holds more than maxSessionMemory
  // megabytes; 64 MiB messages and thousands of calls in flight would reach the default of 10.
  // grpc-js lifts the limit the same way.
  maxSessionMemory: Number.MAX_SAFE_INTEGER,
  maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
};

// ---------------------------------------------------------------------------------------------
// Targets

interface Address {
  /** A name to look up, or an IP literal (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
}

interface Target {
  /** The :authority of every call: the target's host:port (the first of an address list). */
  readonly authority: string;
  /** The name to look up, or undefined when the target lists IP addresses. */
  readonly name: string | undefined;
  readonly port: number;
  /** The addresses of a target that needs no lookup. */
  readonly addresses: readonly Address[];
}

/** Schemes grpc-js resolves that a `scheme:digits` target must not be mistaken for host:port. */
const GRPC_JS_SCHEMES: ReadonlySet<string> = new Set(['unix', 'unix-abstract', 'vsock', 'xds', 'google-c2p', 'dns', 'ipv4', 'ipv6']);
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port > 0 && port <= 65535 ? port : undefined;
}

/** `host:port` or `[v6]:port`; a port is required (targets without one are left to grpc-js). */
function splitHostPort(text: string): Address | undefined {
  let host: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    host = text.slice(1, close);
    if (!net.isIPv6(host)) return undefined;
    rest = text.slice(close + 1);
  } else {
    const colon = text.indexOf(':');
    if (colon < 0) return undefined;
    host = text.slice(0, colon);
    rest = text.slice(colon);
    if (!HOST_NAME.test(host)) return undefined;
  }
  if (!rest.startsWith(':')) return undefined;
  const port = parsePort(rest.slice(1));
  return port === undefined ? undefined : { host, port };
}

function parseTarget(target: string): Target | undefined {
  if (target.startsWith('ipv4:') || target.startsWith('ipv6:')) {
    const isFamily = target.startsWith('ipv4:') ? net.isIPv4 : net.isIPv6;
    const parts = target.slice(5).split(',');
    const addresses: Address[] = [];
    for (const part of parts) {
      const address = splitHostPort(part.trim());
      if (address === undefined || !isFamily(address.host)) return undefined;
      addresses.push(address);
    }
    const first = addresses[0];
    if (first === undefined) return undefined;
    return { authority: (parts[0] as string).trim(), name: undefined, port: first.port, addresses };
  }
  let rest = target;
  if (rest.startsWith('dns:')) {
    rest = rest.slice(4);
    if (rest.startsWith('//')) {
      // dns://server/name asks a given DNS server: grpc-js's resolver does that.
      if (!rest.startsWith('///')) return undefined;
      rest = rest.slice(3);
    }
  }
  const address = splitHostPort(rest);
  if (address === undefined || GRPC_JS_SCHEMES.has(address.host)) return undefined;
  const literal = net.isIP(address.host) !== 0;
  return { authority: rest, name: literal ? undefined : address.host, port: address.port, addresses: literal ? [address] : [] };
}

/**
 * True for a target this client reaches: host:port, dns:///host:port, dns:host:port,
 * ipv4:a:p[,b:p…] and ipv6:[a]:p[,…]. Anything else (unix:, xds:, a target without a port)
 * is left to grpc-js.
 */
export function isH2Target(target: string): boolean {
  return parseTarget(target) !== undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function jittered(ms: number): number {
  return ms * (1 + BACKOFF_JITTER * (Math.random() * 2 - 1));
}

// ---------------------------------------------------------------------------------------------
// Calls

type Method = grpc.MethodDefinition<unknown, unknown>;

/** What every call of one method shares, built once per client. */
interface MethodInfo {
  readonly path: string;
  readonly serialize: (value: unknown) => Buffer;
  readonly deserialize: (bytes: Buffer) => unknown;
  /** The request header fields every call of the method sends (copied, then per-call fields added). */
  readonly headers: http2.OutgoingHttpHeaders;
}

/** Where a call's status metadata comes from: trailers read only when someone needs them. */
type StatusSource = Metadata | http2.IncomingHttpHeaders | undefined;

function metadataOf(source: StatusSource): Metadata {
  if (source === undefined) return new Metadata();
  return source instanceof Metadata ? source : metadataOfHeaders(source);
}

/**
 * What the connection and the stream listeners need of a call; both call kinds implement it,
 * so one set of module-level listeners serves every stream (no closures per call).
 */
interface WireCall {
  readonly method: MethodInfo;
  readonly channel: Channel;
  readonly metadata: Metadata | undefined;
  /** Milliseconds since the epoch; Infinity for none. */
  readonly deadline: number;
  /** The framed request, until sent. */
  request: Buffer | undefined;
  stream: http2.ClientHttp2Stream | undefined;
  connection: Connection | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Created only when a message does not arrive whole in one chunk. */
  reader: MessageReader | undefined;
  /** DATA that came before the leading headers were handled (Node emits 'data' at once, 'response' a tick later). */
  early: Buffer[] | undefined;
  headersSeen: boolean;
  trailers: http2.IncomingHttpHeaders | undefined;
  streamError: (Error & { code?: string }) | undefined;
  ended: boolean;
  receiveHeaders(headers: http2.IncomingHttpHeaders): void;
  receiveMessage(message: Buffer): void;
  /** Ends the call with a status (ignored once ended). */
  endCall(code: Status, details: string, source: StatusSource): void;
}

/** The call a stream belongs to, on the stream itself (a symbol property: no map, no closure). */
const CALL = Symbol('gateway.h2.call');
type CallStream = http2.ClientHttp2Stream & { [CALL]: WireCall };

/**
 * Marks the call ended and releases what it holds; false when it had already ended. A stream
 * still open is reset (CANCEL), so the server stops working on it.
 */
function settle(call: WireCall): boolean {
  if (call.ended) return false;
  call.ended = true;
  call.request = undefined;
  if (call.timer !== undefined) clearTimeout(call.timer);
  const stream = call.stream;
  if (stream !== undefined && !stream.closed && call.trailers === undefined) stream.close(NGHTTP2_CANCEL);
  call.connection?.callEnded();
  return true;
}

function onDeadline(call: WireCall): void {
  call.timer = undefined;
  call.endCall(Status.DEADLINE_EXCEEDED, 'Deadline exceeded', undefined);
}

/** Frames the request and hands the call to the channel; failures end it (reported on a later tick). */
function beginCall(call: WireCall, argument: unknown): void {
  let message: Buffer;
  try {
    message = call.method.serialize(argument);
  } catch (error) {
    call.endCall(Status.INTERNAL, `Request message serialization failure: ${messageOf(error)}`, undefined);
    return;
  }
  if (message.length > MAX_MESSAGE_BYTES) {
    call.endCall(Status.RESOURCE_EXHAUSTED, `Attempted to send message with a size larger than ${MAX_MESSAGE_BYTES}`, undefined);
    return;
  }
  const remaining = call.deadline - Date.now();
  if (remaining <= 0) {
    call.endCall(Status.DEADLINE_EXCEEDED, 'Deadline exceeded', undefined);
    return;
  }
  call.request = frameMessage(message);
  if (remaining <= MAX_TIMER_MS) call.timer = setTimeout(onDeadline, remaining, call);
  call.channel.dispatch(call);
}

function deadlineOf(options: grpc.CallOptions | undefined): number {
  const deadline = options?.deadline;
  if (deadline === undefined) return Number.POSITIVE_INFINITY;
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  // An invalid Date is no deadline (grpc-timeout must stay well formed).
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

// Listeners of every call's http2 stream; `this` is the stream.

function onResponse(this: CallStream, headers: http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader, flags: number): void {
  const call = this[CALL];
  if (call.ended) return;
  if (flags & NGHTTP2_FLAG_END_STREAM) {
    // Trailers-only: the status (and its metadata) in the only header block.
    call.trailers = headers;
    endWithTrailers(call, headers);
    return;
  }
  const httpStatus = headers[':status'] ?? 0;
  if (httpStatus !== 200) {
    call.endCall(statusOfHttpStatus(httpStatus), `Received HTTP status code ${httpStatus}`, undefined);
    return;
  }
  const contentType = headers['content-type'];
  if (!isGrpcContentType(contentType)) {
    call.endCall(Status.UNKNOWN, `Received a response with content-type ${contentType ?? '(none)'}, not ${GRPC_CONTENT_TYPE}`, undefined);
    return;
  }
  call.headersSeen = true;
  call.receiveHeaders(headers);
  const early = call.early;
  if (early !== undefined) {
    call.early = undefined;
    for (const chunk of early) if (!call.ended) readChunk(call, chunk);
  }
}

function isGrpcContentType(value: string | undefined): boolean {
  if (value === undefined || !value.startsWith(GRPC_CONTENT_TYPE)) return false;
  const next = value.charCodeAt(GRPC_CONTENT_TYPE.length);
  return Number.isNaN(next) || next === 43 /* + */ || next === 59 /* ; */;
}

function onData(this: CallStream, chunk: Buffer): void {
  const call = this[CALL];
  if (call.ended) return;
  if (call.headersSeen) readChunk(call, chunk);
  else if (call.early === undefined) call.early = [chunk];
  else call.early.push(chunk);
}

function readChunk(call: WireCall, chunk: Buffer): void {
  // The common case, one whole message in one chunk, without a MessageReader (or its array).
  if (call.reader === undefined && chunk.length >= MESSAGE_PREFIX_BYTES && chunk[0] === 0) {
    const length = chunk.readUInt32BE(1);
    if (length + MESSAGE_PREFIX_BYTES === chunk.length && length <= MAX_MESSAGE_BYTES) {
      call.receiveMessage(chunk.subarray(MESSAGE_PREFIX_BYTES));
      return;
    }
  }
  call.reader ??= new MessageReader(MAX_MESSAGE_BYTES);
  let messages: Buffer[];
  try {
    messages = call.reader.push(chunk);
  } catch (error) {
    if (error instanceof FrameError) call.endCall(error.status, error.message, undefined);
    else call.endCall(Status.INTERNAL, messageOf(error), undefined);
    return;
  }
  for (const message of messages) {
    if (call.ended) return;
    call.receiveMessage(message);
  }
}

function onTrailers(this: CallStream, trailers: http2.IncomingHttpHeaders): void {
  const call = this[CALL];
  if (call.ended) return;
  call.trailers = trailers;
  // The server is done: data a paused reader left in the stream may all come in now, so the
  // status follows the last message instead of waiting for the reader.
  if (this.isPaused()) this.resume();
}

/** Every DATA chunk has been read: the trailers, if any came, give the status. */
function onEnd(this: CallStream): void {
  const call = this[CALL];
  if (call.ended) return;
  if (call.trailers !== undefined) endWithTrailers(call, call.trailers);
}

function onError(this: CallStream, error: Error & { code?: string }): void {
  const call = this[CALL];
  call.streamError = error;
  // No stream ids left on this session: it takes no more calls; the call fails UNAVAILABLE on 'close'.
  if (error.code === 'ERR_HTTP2_OUT_OF_STREAMS') call.connection?.retire('the session ran out of stream ids');
}

/** The stream is gone; a call still open ends as grpc-js ends it from the RST_STREAM code. */
function onClose(this: CallStream): void {
  const call = this[CALL];
  if (call.ended) return;
  if (call.trailers !== undefined) {
    endWithTrailers(call, call.trailers);
    return;
  }
  const connection = call.connection;
  if (connection?.session.destroyed) {
    call.endCall(Status.UNAVAILABLE, connection.dropReason ?? 'Connection dropped', undefined);
    return;
  }
  const error = call.streamError;
  if (error?.code === 'ERR_HTTP2_OUT_OF_STREAMS') {
    call.endCall(Status.UNAVAILABLE, 'Stream refused: the session ran out of stream ids', undefined);
    return;
  }
  const rstCode = this.rstCode;
  switch (rstCode) {
    case NGHTTP2_NO_ERROR:
      call.endCall(Status.INTERNAL, `Received RST_STREAM with code ${rstCode} (Call ended without gRPC status)`, undefined);
      return;
    case NGHTTP2_REFUSED_STREAM:
      // Safe to retry: the server never saw the call. A session refusing streams is replaced.
      connection?.retire('the server refused a stream');
      call.endCall(Status.UNAVAILABLE, 'Stream refused by server', undefined);
      return;
    case NGHTTP2_CANCEL:
      call.endCall(Status.CANCELLED, 'Call cancelled', undefined);
      return;
    case NGHTTP2_ENHANCE_YOUR_CALM:
      call.endCall(Status.RESOURCE_EXHAUSTED, 'Bandwidth exhausted or memory limit exceeded', undefined);
      return;
    case NGHTTP2_INADEQUATE_SECURITY:
      call.endCall(Status.PERMISSION_DENIED, 'Protocol not secure enough', undefined);
      return;
    case NGHTTP2_INTERNAL_ERROR:
      if (error?.code === 'ECONNRESET' || error?.code === 'ETIMEDOUT') call.endCall(Status.UNAVAILABLE, error.message, undefined);
      else
        call.endCall(
          Status.INTERNAL,
          error === undefined || error.code === 'ERR_HTTP2_STREAM_ERROR'
            ? `Received RST_STREAM with code ${rstCode} (Internal server error)`
            : `Received RST_STREAM with code ${rstCode} triggered by internal client error: ${error.message}`,
          undefined,
        );
      return;
    default:
      call.endCall(Status.INTERNAL, `Received RST_STREAM with code ${rstCode}`, undefined);
  }
}

/** The status trailers carry; OK without reading them into Metadata (the call does, if asked). */
function endWithTrailers(call: WireCall, trailers: http2.IncomingHttpHeaders): void {
  const raw = trailers['grpc-status'];
  if (raw === '0') {
    const message = trailers['grpc-message'];
    call.endCall(Status.OK, typeof message === 'string' ? message : '', trailers);
  } else if (raw !== undefined) {
    const status = statusOfTrailers(trailers);
    call.endCall(status.code, status.details, status.metadata);
  } else {
    const httpStatus = Number(trailers[':status'] ?? 200);
    if (httpStatus !== 200) call.endCall(statusOfHttpStatus(httpStatus), `Received HTTP status code ${httpStatus}`, trailers);
    else call.endCall(Status.UNKNOWN, 'No status information received', trailers);
  }
}

/** A unary call as its caller holds it: 'metadata' and 'status' events, cancel(), getPeer(). */
class H2UnaryCall extends EventEmitter implements grpc.ClientUnaryCall, WireCall {
  readonly method: MethodInfo;
  readonly channel: Channel;
  readonly metadata: Metadata | undefined;
  readonly deadline: number;
  request: Buffer | undefined = undefined;
  stream: http2.ClientHttp2Stream | undefined = undefined;
  connection: Connection | undefined = undefined;
  timer: NodeJS.Timeout | undefined = undefined;
  reader: MessageReader | undefined = undefined;
  early: Buffer[] | undefined = undefined;
  headersSeen = false;
  trailers: http2.IncomingHttpHeaders | undefined = undefined;
  streamError: (Error & { code?: string }) | undefined = undefined;
  ended = false;
  readonly #callback: grpc.requestCallback<unknown>;
  #response: unknown = undefined;
  #answered = false;

  constructor(
    method: MethodInfo,
    channel: Channel,
    metadata: Metadata | undefined,
    deadline: number,
    callback: grpc.requestCallback<unknown>,
  ) {
    super();
    this.method = method;
    this.channel = channel;
    this.metadata = metadata;
    this.deadline = deadline;
    this.#callback = callback;
  }

  cancel(): void {
    this.endCall(Status.CANCELLED, 'Cancelled on client', undefined);
  }

  getPeer(): string {
    return this.connection?.peer ?? this.channel.target;
  }

  getAuthContext(): null {
    return null;
  }

  receiveHeaders(headers: http2.IncomingHttpHeaders): void {
    // Metadata is built only for a listener (unary() listens only when its caller asked).
    if (this.listenerCount('metadata') > 0) this.emit('metadata', metadataOfHeaders(headers));
  }

  receiveMessage(message: Buffer): void {
    if (this.#answered) {
      this.endCall(Status.UNIMPLEMENTED, 'Too many responses received', undefined);
      return;
    }
    try {
      this.#response = this.method.deserialize(message);
      this.#answered = true;
    } catch (error) {
      this.endCall(Status.INTERNAL, `Response message parsing error: ${messageOf(error)}`, undefined);
    }
  }

  endCall(code: Status, details: string, source: StatusSource): void {
    if (!settle(this)) return;
    if (code === Status.OK && this.#answered) {
      // The hot path: straight from the stream's 'end', no Metadata unless 'status' is listened to.
      this.#callback(null, this.#response);
      if (this.listenerCount('status') > 0) this.emit('status', { code, details, metadata: metadataOf(source) });
      return;
    }
    // Failures reach the caller on a later tick, as grpc-js delivers them: a call that fails
    // before it starts must not call back before its method has returned it.
    process.nextTick(H2UnaryCall.#fail, this, code, details, metadataOf(source));
  }

  static #fail(call: H2UnaryCall, code: Status, details: string, metadata: Metadata): void {
    // An OK status without a message is grpc-js's UNIMPLEMENTED 'No message received'; the
    // 'status' event still says what the server sent.
    if (code === Status.OK) call.#callback(serviceError(Status.UNIMPLEMENTED, 'No message received', metadata));
    else call.#callback(serviceError(code, details, metadata));
    call.emit('status', { code, details, metadata });
  }
}

/** A server stream as its caller reads it: a Readable of messages with 'metadata', 'error' and 'status', and cancel(). */
class H2ResponseStream extends Readable implements grpc.ClientReadableStream<unknown>, WireCall {
  readonly deserialize: (chunk: Buffer) => unknown;
  readonly method: MethodInfo;
  readonly channel: Channel;
  readonly metadata: Metadata | undefined;
  readonly deadline: number;
  request: Buffer | undefined = undefined;
  stream: http2.ClientHttp2Stream | undefined = undefined;
  connection: Connection | undefined = undefined;
  timer: NodeJS.Timeout | undefined = undefined;
  reader: MessageReader | undefined = undefined;
  early: Buffer[] | undefined = undefined;
  headersSeen = false;
  trailers: http2.IncomingHttpHeaders | undefined = undefined;
  streamError: (Error & { code?: string }) | undefined = undefined;
  ended = false;
  /** The http2 stream was paused because this reader's buffer is full. */
  #holding = false;

  constructor(method: MethodInfo, channel: Channel, metadata: Metadata | undefined, deadline: number) {
    super({ objectMode: true });
    this.method = method;
    this.channel = channel;
    this.metadata = metadata;
    this.deadline = deadline;
    this.deserialize = method.deserialize;
  }

  cancel(): void {
    this.endCall(Status.CANCELLED, 'Cancelled on client', undefined);
  }

  getPeer(): string {
    return this.connection?.peer ?? this.channel.target;
  }

  getAuthContext(): null {
    return null;
  }

  override _read(): void {
    // The reader wants more: let the http2 stream flow (and its window open) again.
    if (this.#holding) {
      this.#holding = false;
      this.stream?.resume();
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A reader that destroys the stream (a for-await loop left early, a pipeline torn down) is
    // gone: the call is reset so the server stops, and no status is reported to nobody.
    settle(this);
    callback(error);
  }

  receiveHeaders(headers: http2.IncomingHttpHeaders): void {
    if (this.listenerCount('metadata') > 0) this.emit('metadata', metadataOfHeaders(headers));
  }

  receiveMessage(message: Buffer): void {
    let decoded: unknown;
    try {
      decoded = this.deserialize(message);
    } catch (error) {
      this.endCall(Status.INTERNAL, `Response message parsing error: ${messageOf(error)}`, undefined);
      return;
    }
    // A full buffer pauses the http2 stream: its flow-control window stays closed and the
    // server's writes wait, until _read asks for more.
    if (!this.push(decoded) && !this.#holding && this.trailers === undefined) {
      this.#holding = true;
      this.stream?.pause();
    }
  }

  endCall(code: Status, details: string, source: StatusSource): void {
    if (!settle(this)) return;
    if (code === Status.OK) {
      this.push(null);
      if (this.listenerCount('status') > 0) this.emit('status', { code, details, metadata: metadataOf(source) });
      return;
    }
    process.nextTick(H2ResponseStream.#fail, this, code, details, metadataOf(source));
  }

  static #fail(stream: H2ResponseStream, code: Status, details: string, metadata: Metadata): void {
    stream.push(null);
    stream.emit('error', serviceError(code, details, metadata));
    stream.emit('status', { code, details, metadata });
  }
}

// ---------------------------------------------------------------------------------------------
// Connections

/**
 * One HTTP/2 session to one address: connects, says when it is up (the server's SETTINGS),
 * keeps itself alive with pings, and says when it stops taking calls.
 */
class Connection {
  readonly subchannel: Subchannel;
  readonly session: http2.ClientHttp2Session;
  readonly peer: string;
  /** Why the session was dropped, for the calls it takes down. */
  dropReason: string | undefined = undefined;
  /** The server's SETTINGS came: calls may start. */
  up = false;
  /** Takes no new calls (GOAWAY, refused streams, replaced, closing); calls under way go on. */
  retired = false;
  #active = 0;
  #lastError: string | undefined = undefined;
  #connectTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined = undefined;
  #pingDeadline: NodeJS.Timeout | undefined = undefined;
  readonly #onPingAck: (error: Error | null) => void;

  constructor(subchannel: Subchannel, address: Address) {
    this.subchannel = subchannel;
    this.peer = net.isIPv6(address.host) ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
    this.#onPingAck = (error) => this.#pingAcknowledged(error);
    const { host, port } = address;
    this.session = http2.connect(`http://${this.peer}`, {
      ...SESSION_OPTIONS,
      createConnection: () => net.connect({ host, port }),
    });
    // An idle session does not keep the process alive; one with calls does (see start).
    this.session.unref();
    this.session.once('remoteSettings', () => this.#connected());
    this.session.on('goaway', (code: number, _lastStreamId: number, data?: Buffer) => this.#goaway(code, data));
    this.session.on('error', (error: Error) => {
      this.#lastError = messageOf(error);
    });
    this.session.once('close', () => this.#closed());
    this.#connectTimer = setTimeout(Connection.#connectTimedOut, subchannel.channel.connectTimeoutMs, this);
    this.#connectTimer.unref();
  }

  static #connectTimedOut(connection: Connection): void {
    connection.#connectTimer = undefined;
    connection.#lastError = `Connection to ${connection.peer} timed out`;
    connection.session.destroy();
  }

  #connected(): void {
    clearTimeout(this.#connectTimer);
    this.#connectTimer = undefined;
    if (this.retired || this.session.destroyed) return;
    this.up = true;
    this.#schedulePing();
    this.subchannel.connected(this);
  }

  #goaway(code: number, data: Buffer | undefined): void {
    // A server that finds the pings too frequent says so; grpc-js doubles its interval then.
    if (code === NGHTTP2_ENHANCE_YOUR_CALM && data?.equals(TOO_MANY_PINGS)) this.subchannel.channel.keepaliveTimeMs *= 2;
    this.retire(`the server sent GOAWAY (code ${code})`);
  }

  #closed(): void {
    clearTimeout(this.#connectTimer);
    this.#stopPinging();
    if (!this.up) {
      this.retired = true;
      this.subchannel.connectFailed(this, this.#lastError ?? `Connection to ${this.peer} closed before it was established`);
      return;
    }
    this.retire(this.#lastError ?? 'the connection closed');
  }

  /** Starts a call on this session. */
  start(call: WireCall): void {
    const method = call.method;
    // The method's fixed fields, then the deadline and the caller's metadata.
    const headers: http2.OutgoingHttpHeaders = { ...method.headers };
    if (call.deadline !== Number.POSITIVE_INFINITY) headers['grpc-timeout'] = encodeTimeout(call.deadline - Date.now());
    if (call.metadata !== undefined) addMetadataHeaders(headers, call.metadata);
    // A session destroyed (a missed ping) whose 'close' has not come yet: since Node 24 its
    // request() no longer throws but gives a stream that fails, so it is checked here.
    if (this.session.destroyed || this.session.closed) {
      this.retire('the session closed');
      call.channel.dispatch(call);
      return;
    }
    let stream: http2.ClientHttp2Stream;
    try {
      stream = this.session.request(headers);
    } catch (error) {
      // The session cannot take it (closing or destroyed before its event arrived): retire it
      // and let the channel pick again.
      this.retire(`a request failed: ${messageOf(error)}`);
      call.channel.dispatch(call);
      return;
    }
    (stream as CallStream)[CALL] = call;
    call.stream = stream;
    call.connection = this;
    stream.on('response', onResponse);
    stream.on('data', onData);
    stream.on('trailers', onTrailers);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    stream.end(call.request);
    call.request = undefined;
    if (this.#active++ === 0) this.session.ref();
  }

  /** A call started here ended. */
  callEnded(): void {
    if (--this.#active === 0 && !this.session.destroyed) this.session.unref();
  }

  /** Takes no new calls from now on; calls under way finish, then the session closes. A replacement is made. */
  retire(reason: string): void {
    if (this.retired) return;
    this.retired = true;
    this.#stopPinging();
    this.dropReason ??= `Connection dropped: ${reason}`;
    if (!this.session.closed && !this.session.destroyed) this.session.close();
    if (this.up) this.subchannel.lost(this);
  }

  /** Ends the session now: its calls fail UNAVAILABLE; new calls go to another (or its replacement) at once. */
  destroy(reason: string): void {
    this.dropReason = `Connection dropped: ${reason}`;
    this.#lastError = reason;
    this.session.destroy();
    this.retire(reason);
  }

  #schedulePing(): void {
    this.#pingTimer = setTimeout(Connection.#sendPing, this.subchannel.channel.keepaliveTimeMs, this);
    this.#pingTimer.unref();
  }

  static #sendPing(connection: Connection): void {
    connection.#pingTimer = undefined;
    const session = connection.session;
    if (connection.retired || session.closed || session.destroyed) return;
    const timeoutMs = connection.subchannel.channel.keepaliveTimeoutMs;
    let sent: boolean;
    try {
      sent = session.ping(connection.#onPingAck);
    } catch {
      sent = false;
    }
    if (!sent) {
      connection.destroy('a keepalive ping could not be sent');
      return;
    }
    connection.#pingDeadline = setTimeout(Connection.#pingTimedOut, timeoutMs, connection, timeoutMs);
    connection.#pingDeadline.unref();
  }

  #pingAcknowledged(error: Error | null): void {
    if (this.#pingDeadline === undefined) return;
    clearTimeout(this.#pingDeadline);
    this.#pingDeadline = undefined;
    if (error === null) this.#schedulePing();
    else if (!this.retired) this.destroy(`keepalive ping failed: ${error.message}`);
  }

  static #pingTimedOut(connection: Connection, timeoutMs: number): void {
    connection.#pingDeadline = undefined;
    connection.destroy(`keepalive ping not acknowledged within ${timeoutMs} ms`);
  }

  #stopPinging(): void {
    clearTimeout(this.#pingTimer);
    clearTimeout(this.#pingDeadline);
    this.#pingTimer = undefined;
    this.#pingDeadline = undefined;
  }
}

type SubchannelState = 'idle' | 'connecting' | 'ready' | 'failing';

/**
 * One address of the target: its current connection, and reconnection with backoff. 'failing'
 * is sticky from a failed attempt until a connection is up again (grpc-js's TRANSIENT_FAILURE).
 */
class Subchannel {
  readonly channel: Channel;
  readonly address: Address;
  state: SubchannelState = 'idle';
  connection: Connection | undefined = undefined;
  #backoffMs = FIRST_BACKOFF_MS;
  #retryTimer: NodeJS.Timeout | undefined = undefined;
  #removed = false;

  constructor(channel: Channel, address: Address) {
    this.channel = channel;
    this.address = address;
  }

  connect(): void {
    this.#retryTimer = undefined;
    if (this.#removed || this.channel.closed) return;
    if (this.state !== 'failing') this.state = 'connecting';
    this.connection = new Connection(this, this.address);
  }

  connected(connection: Connection): void {
    if (connection !== this.connection) return;
    this.state = 'ready';
    this.#backoffMs = FIRST_BACKOFF_MS;
    this.channel.connectionUp(connection);
  }

  connectFailed(connection: Connection, reason: string): void {
    if (connection !== this.connection) return;
    this.connection = undefined;
    this.state = 'failing';
    if (!this.#removed && !this.channel.closed) {
      this.#retryTimer = setTimeout(Subchannel.#retry, jittered(this.#backoffMs), this);
      this.#retryTimer.unref();
      this.#backoffMs = Math.min(this.#backoffMs * BACKOFF_MULTIPLIER, MAX_BACKOFF_MS);
    }
    this.channel.subchannelFailed(reason);
  }

  static #retry(subchannel: Subchannel): void {
    subchannel.connect();
  }

  /** A connection that was up stopped taking calls: replace it at once (its backoff was reset when it came up). */
  lost(connection: Connection): void {
    this.channel.connectionDown(connection);
    if (connection === this.connection) {
      this.connection = undefined;
      this.state = 'connecting';
      this.connect();
    }
    this.channel.resolveAgain();
  }

  /** Gone from the name's addresses, or the channel closed: calls under way finish, nothing reconnects. */
  remove(): void {
    this.#removed = true;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const connection = this.connection;
    this.connection = undefined;
    if (connection === undefined) return;
    if (connection.up) connection.retire('the channel no longer uses this address');
    else connection.session.destroy();
  }
}

/**
 * The target's subchannels, the sessions up among them (picked round robin), the calls waiting
 * for a first connection, and the name's resolution.
 */
class Channel {
  readonly target: string;
  readonly authority: string;
  readonly connectTimeoutMs: number;
  keepaliveTimeMs: number;
  readonly keepaliveTimeoutMs: number;
  closed = false;
  readonly #parsed: Target;
  #subchannels = new Map<string, Subchannel>();
  /** Sessions up and taking calls, in round-robin order. */
  readonly #up: Connection[] = [];
  #next = 0;
  /** Calls waiting for a session (a first attempt under way). */
  #waiting: WireCall[] = [];
  #started = false;
  #lastError = 'no connection attempted yet';
  #resolving = false;
  /** The last lookup failed and no address is known: calls fail fast until one succeeds. */
  #resolveFailing = false;
  #lastResolveAt = 0;
  #resolveTimer: NodeJS.Timeout | undefined = undefined;
  #resolveBackoffMs = FIRST_BACKOFF_MS;

  constructor(target: string, parsed: Target, options: H2ClientOptions) {
    this.target = target;
    this.#parsed = parsed;
    this.authority = parsed.authority;
    this.keepaliveTimeMs = options.keepaliveTimeMs ?? KEEPALIVE_TIME_MS;
    this.keepaliveTimeoutMs = options.keepaliveTimeoutMs ?? KEEPALIVE_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  }

  /** Starts `call` on the next session up; waits for a first connection; or fails it UNAVAILABLE. */
  dispatch(call: WireCall): void {
    const up = this.#up;
    if (up.length > 0) {
      if (this.#next >= up.length) this.#next = 0;
      (up[this.#next++] as Connection).start(call);
      return;
    }
    if (this.closed) {
      call.endCall(Status.UNAVAILABLE, 'Channel closed before call started', undefined);
      return;
    }
    this.#start();
    if (this.#connecting()) this.#waiting.push(call);
    else call.endCall(Status.UNAVAILABLE, this.#unavailable(), undefined);
  }

  /** Later calls throw; calls under way finish, then the sessions close. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.#resolveTimer);
    this.#resolveTimer = undefined;
    for (const subchannel of this.#subchannels.values()) subchannel.remove();
    this.#subchannels.clear();
    this.#up.length = 0;
    this.#failWaiting('Channel closed before call started');
  }

  connectionUp(connection: Connection): void {
    this.#up.push(connection);
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (const call of waiting) if (!call.ended) this.dispatch(call);
  }

  connectionDown(connection: Connection): void {
    const index = this.#up.indexOf(connection);
    if (index >= 0) this.#up.splice(index, 1);
  }

  subchannelFailed(reason: string): void {
    this.#lastError = reason;
    if (this.#up.length === 0 && !this.#connecting()) this.#failWaiting(this.#unavailable());
    this.resolveAgain();
  }

  /** Looks the name up again (at most once a second), so addresses added or gone are seen. */
  resolveAgain(): void {
    if (this.#parsed.name === undefined || this.closed || this.#resolving || this.#resolveTimer !== undefined) return;
    const wait = this.#lastResolveAt + MIN_RESOLVE_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.#resolveTimer = setTimeout(Channel.#resolveLater, wait, this);
      this.#resolveTimer.unref();
      return;
    }
    this.#resolve();
  }

  static #resolveLater(channel: Channel): void {
    channel.#resolveTimer = undefined;
    channel.#resolve();
  }

  /** Connects every address on the first call (lazily, as grpc-js's channel leaves IDLE). */
  #start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.#parsed.name === undefined) this.#setAddresses(this.#parsed.addresses);
    else this.#resolve();
  }

  /** True while a call should wait: a lookup or a connection attempt not yet failed is under way. */
  #connecting(): boolean {
    if (this.#subchannels.size === 0) return this.#resolving && !this.#resolveFailing;
    for (const subchannel of this.#subchannels.values()) if (subchannel.state === 'connecting' || subchannel.state === 'idle') return true;
    return false;
  }

  #unavailable(): string {
    return `No connection established to ${this.target}. Last error: ${this.#lastError}`;
  }

  #failWaiting(details: string): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (const call of waiting) call.endCall(Status.UNAVAILABLE, details, undefined);
  }

  #resolve(): void {
    const name = this.#parsed.name;
    if (name === undefined || this.closed || this.#resolving) return;
    this.#resolving = true;
    this.#lastResolveAt = Date.now();
    dns.promises.lookup(name, { all: true }).then(
      (found) => this.#resolved(found.map(({ address }) => ({ host: address, port: this.#parsed.port }))),
      (error: unknown) => this.#resolveFailed(`DNS lookup of ${name} failed: ${messageOf(error)}`),
    );
  }

  #resolved(addresses: Address[]): void {
    this.#resolving = false;
    if (this.closed) return;
    if (addresses.length === 0) {
      this.#resolveFailed(`DNS lookup of ${this.#parsed.name} found no addresses`);
      return;
    }
    this.#resolveFailing = false;
    this.#resolveBackoffMs = FIRST_BACKOFF_MS;
    this.#setAddresses(addresses);
  }

  #resolveFailed(reason: string): void {
    this.#resolving = false;
    if (this.closed) return;
    this.#lastError = reason;
    // Addresses found before are kept; with none, calls fail fast and the lookup is retried.
    if (this.#subchannels.size > 0) return;
    this.#resolveFailing = true;
    this.#failWaiting(this.#unavailable());
    clearTimeout(this.#resolveTimer);
    this.#resolveTimer = setTimeout(Channel.#resolveLater, jittered(this.#resolveBackoffMs), this);
    this.#resolveTimer.unref();
    this.#resolveBackoffMs = Math.min(this.#resolveBackoffMs * BACKOFF_MULTIPLIER, MAX_BACKOFF_MS);
  }

  /** Keeps the subchannels of addresses still named, connects new ones, retires the rest. */
  #setAddresses(addresses: readonly Address[]): void {
    const next = new Map<string, Subchannel>();
    for (const address of addresses) {
      const key = `${address.host}|${address.port}`;
      if (next.has(key)) continue;
      const existing = this.#subchannels.get(key);
      if (existing !== undefined) {
        next.set(key, existing);
        continue;
      }
      const subchannel = new Subchannel(this, address);
      next.set(key, subchannel);
      subchannel.connect();
    }
    for (const [key, subchannel] of this.#subchannels) if (!next.has(key)) subchannel.remove();
    this.#subchannels = next;
    if (this.#up.length === 0 && !this.#connecting()) this.#failWaiting(this.#unavailable());
  }
}

// ---------------------------------------------------------------------------------------------
// The client

/**
 * What the gateway uses of a generated grpc-js client, over this file's HTTP/2 transport: a
 * function per method (under its proto name and its camelCase name, as grpc-js defines them)
 * and close().
 */
class H2Client {
  readonly #channel: Channel;

  constructor(service: grpc.ServiceDefinition, target: string, parsed: Target, options: H2ClientOptions) {
    const channel = new Channel(target, parsed, options);
    this.#channel = channel;
    const methods = this as unknown as Record<string, unknown>;
    for (const [name, method] of Object.entries(service) as [string, Method][]) {
      const info: MethodInfo = {
        path: method.path,
        serialize: method.requestSerialize,
        deserialize: method.responseDeserialize,
        headers: {
          ':method': 'POST',
          ':scheme': 'http',
          ':path': method.path,
          ':authority': channel.authority,
          'content-type': GRPC_CONTENT_TYPE,
          te: 'trailers',
          'grpc-accept-encoding': 'identity',
          'user-agent': USER_AGENT,
        },
      };
      const invoke = method.requestStream
        ? () => {
            throw new Error(`${method.path}: client-streaming calls are not supported by the gateway's h2 client`);
          }
        : method.responseStream
          ? (argument: unknown, metadata?: Metadata | grpc.CallOptions, options?: grpc.CallOptions) =>
              this.#serverStream(info, argument, metadata, options)
          : (argument: unknown, first?: unknown, second?: unknown, third?: unknown) => this.#unary(info, argument, first, second, third);
      methods[name] = invoke;
      if (method.originalName !== undefined) methods[method.originalName] = invoke;
    }
  }

  /** Later calls throw, as on a closed grpc-js channel; calls under way finish, then the sessions close. */
  close(): void {
    this.#channel.close();
  }

  /** grpc-js's overloads: (argument, [metadata], [options], callback). */
  #unary(method: MethodInfo, argument: unknown, first: unknown, second: unknown, third: unknown): grpc.ClientUnaryCall {
    const { metadata, options, callback } = unaryArguments(method.path, first, second, third);
    this.#checkOpen();
    const call = new H2UnaryCall(method, this.#channel, metadata, deadlineOf(options), callback);
    beginCall(call, argument);
    return call;
  }

  #serverStream(
    method: MethodInfo,
    argument: unknown,
    metadataOrOptions: Metadata | grpc.CallOptions | undefined,
    options: grpc.CallOptions | undefined,
  ): grpc.ClientReadableStream<unknown> {
    this.#checkOpen();
    const metadata = metadataOrOptions instanceof Metadata ? metadataOrOptions : undefined;
    const callOptions = metadataOrOptions instanceof Metadata ? options : metadataOrOptions;
    const stream = new H2ResponseStream(method, this.#channel, metadata, deadlineOf(callOptions));
    beginCall(stream, argument);
    return stream;
  }

  #checkOpen(): void {
    if (this.#channel.closed) throw new Error('Channel has been shut down');
  }
}

/**
 * A client for `service` at `target` (see isH2Target) on the gateway's own HTTP/2 transport;
 * `options` only for tests (every default is the production value).
 */
export function createH2Client(service: grpc.ServiceDefinition, target: string, options: H2ClientOptions = {}): unknown {
  const parsed = parseTarget(target);
  if (parsed === undefined) throw new Error(`not a target the h2 client reaches: ${target}`);
  return new H2Client(service, target, parsed, options);
}
