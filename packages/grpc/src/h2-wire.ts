import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';
import { Metadata, Status } from './grpc-js.js';

// gRPC over HTTP/2 as the wire carries it (the protocol's PROTOCOL-HTTP2 document): what the
// gateway's own client and server on Node's http2 module share with each other and with any
// other gRPC implementation. Messages are length-prefixed; metadata travels as header fields
// (binary values, keys ending in -bin, base64-encoded); the status comes in trailers.
// It also holds what both of the gateway's own transports (h2 and in-process) share of grpc-js's
// call shapes: its overloads and its ServiceError.

export const GRPC_CONTENT_TYPE = 'application/grpc';
/** Bytes before each message: a compressed flag and a 4-byte big-endian length. */
export const MESSAGE_PREFIX_BYTES = 5;

/** Header fields that belong to the protocol, never to a call's metadata. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'te',
  'grpc-timeout',
  'grpc-encoding',
  'grpc-accept-encoding',
  'grpc-status',
  'grpc-message',
  'grpc-status-details-bin',
]);

/** The 5 bytes that go before a message of `length` bytes (not compressed). */
export function messagePrefix(length: number): Buffer {
  const prefix = Buffer.allocUnsafe(MESSAGE_PREFIX_BYTES);
  prefix[0] = 0;
  prefix.writeUInt32BE(length, 1);
  return prefix;
}

/** A message with its prefix, in one buffer (one write, one DATA frame when it fits). */
export function frameMessage(message: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(MESSAGE_PREFIX_BYTES + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  message.copy(framed, MESSAGE_PREFIX_BYTES);
  return framed;
}

/** Why a frame could not be read: the status the call ends with. */
export class FrameError extends Error {
  readonly status: Status;
  constructor(status: Status, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads length-prefixed messages out of DATA chunks, which may split or join them anyhow.
 * Compressed messages are refused: the gateway never asks for compression.
 */
export class MessageReader {
  readonly #maxBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The length of the message being read, once its prefix is in; -1 before. */
  #expected = -1;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held that do not yet make a whole message (a stream ending with some is truncated). */
  get partial(): boolean {
    return this.#pendingBytes > 0;
  }

  /** The whole messages `chunk` completes, in order; throws FrameError on a bad frame. */
  push(chunk: Buffer): Buffer[] {
    // The common case: one whole message in one chunk, nothing held.
    if (this.#pendingBytes === 0 && this.#expected < 0 && chunk.length >= MESSAGE_PREFIX_BYTES) {
      const length = this.#checkPrefix(chunk);
      if (chunk.length === MESSAGE_PREFIX_BYTES + length) return [chunk.subarray(MESSAGE_PREFIX_BYTES)];
    }
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    const messages: Buffer[] = [];
    for (;;) {
      if (this.#expected < 0) {
        if (this.#pendingBytes < MESSAGE_PREFIX_BYTES) break;
        this.#expected = this.#checkPrefix(this.#take(MESSAGE_PREFIX_BYTES));
      }
      if (this.#pendingBytes < this.#expected) break;
      messages.push(this.#take(this.#expected));
      this.#expected = -1;
    }
    return messages;
  }

  #checkPrefix(bytes: Buffer): number {
    if (bytes[0] !== 0) {
      throw new FrameError(Status.INTERNAL, 'Compressed message received, but no compression was negotiated');
    }
    const length = bytes.readUInt32BE(1);
    if (length > this.#maxBytes) {
      throw new FrameError(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs. ${this.#maxBytes})`);
    }
    return length;
  }

  /** The next `count` bytes held, removed. */
  #take(count: number): Buffer {
    if (count === 0) return Buffer.alloc(0);
    const first = this.#pending[0] as Buffer;
    let taken: Buffer;
    if (first.length >= count) {
      taken = first.subarray(0, count);
      if (first.length === count) this.#pending.shift();
      else this.#pending[0] = first.subarray(count);
    } else {
      taken = Buffer.allocUnsafe(count);
      let offset = 0;
      while (offset < count) {
        const head = this.#pending[0] as Buffer;
        const n = Math.min(head.length, count - offset);
        head.copy(taken, offset, 0, n);
        offset += n;
        if (n === head.length) this.#pending.shift();
        else this.#pending[0] = head.subarray(n);
      }
    }
    this.#pendingBytes -= count;
    return taken;
  }
}

/** Adds `metadata` to outgoing header fields (binary values base64-encoded, as the protocol says). */
export function addMetadataHeaders(headers: OutgoingHttpHeaders, metadata: Metadata): OutgoingHttpHeaders {
  const map = metadata.getMap();
  for (const key of Object.keys(map)) {
    const values = metadata.get(key);
    if (key.endsWith('-bin')) {
      headers[key] = values.map((value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)).toString('base64'));
    } else {
      headers[key] = values.length === 1 ? String(values[0]) : values.map(String);
    }
  }
  return headers;
}

/** The metadata in received header fields or trailers: protocol fields and pseudo-headers left out. */
export function metadataOfHeaders(headers: IncomingHttpHeaders): Metadata {
  const metadata = new Metadata();
  for (const key of Object.keys(headers)) {
    if (key.charCodeAt(0) === 58 /* ':' */ || RESERVED_HEADERS.has(key)) continue;
    const value = headers[key];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    if (key.endsWith('-bin')) {
      // A binary value may arrive as several base64 values joined by commas.
      for (const joined of values) for (const part of joined.split(',')) metadata.add(key, Buffer.from(part.trim(), 'base64'));
    } else {
      for (const part of values) metadata.add(key, part);
    }
  }
  return metadata;
}

const TIMEOUT_UNITS: readonly [suffix: string, ms: number][] = [
  ['n', 1e-6],
  ['u', 1e-3],
  ['m', 1],
  ['S', 1000],
  ['M', 60_000],
  ['H', 3_600_000],
];

/** A grpc-timeout value for `ms` milliseconds from now: at most 8 digits, rounded up. */
export function encodeTimeout(ms: number): string {
  const remaining = Math.max(0, Math.ceil(ms));
  if (remaining < 1e8) return `${remaining}m`;
  for (const [suffix, unit] of TIMEOUT_UNITS.slice(3)) {
    const amount = Math.ceil(remaining / unit);
    if (amount < 1e8) return `${amount}${suffix}`;
  }
  return '99999999H';
}

/** Milliseconds a grpc-timeout value allows; undefined when it is malformed. */
export function decodeTimeout(value: string): number | undefined {
  const match = /^(\d{1,8})([HMSmun])$/.exec(value);
  if (match === null) return undefined;
  const unit = TIMEOUT_UNITS.find(([suffix]) => suffix === match[2]) as [string, number];
  return Number(match[1]) * unit[1];
}

/** A grpc-message value: percent-encoded outside printable ASCII, and '%' itself. */
export function encodeStatusMessage(details: string): string {
  let plain = true;
  for (let i = 0; i < details.length; i += 1) {
    const c = details.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x25) {
      plain = false;
      break;
    }
  }
  if (plain) return details;
  let encoded = '';
  for (const byte of Buffer.from(details, 'utf8')) {
    encoded +=
      byte < 0x20 || byte > 0x7e || byte === 0x25 ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return encoded;
}

/** A received grpc-message, decoded; an invalid escape is kept as it came. */
export function decodeStatusMessage(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The status a trailers block carries; a missing or unknown grpc-status is UNKNOWN. */
export function statusOfTrailers(trailers: IncomingHttpHeaders): { code: Status; details: string; metadata: Metadata } {
  const raw = trailers['grpc-status'];
  const code = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Status.UNKNOWN;
  const message = trailers['grpc-message'];
  return {
    code: code in Status ? (code as Status) : Status.UNKNOWN,
    details: typeof message === 'string' ? decodeStatusMessage(message) : '',
    metadata: metadataOfHeaders(trailers),
  };
}

/** A ServiceError as grpc-js builds one from a status (callErrorFromStatus, without the caller's stack). */
export function serviceError(code: Status, details: string, metadata: Metadata): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${Status[code]}: ${details}`), { code, details, metadata });
}

/**
 * The gRPC status for an HTTP status other than 200 (the protocol's mapping, for answers that
 * did not come from a gRPC server, such as a proxy's).
 */
export function statusOfHttpStatus(httpStatus: number): Status {
  switch (httpStatus) {
    case 400:
      return Status.INTERNAL;
    case 401:
      return Status.UNAUTHENTICATED;
    case 403:
      return Status.PERMISSION_DENIED;
    case 404:
      return Status.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return Status.UNAVAILABLE;
    default:
      return Status.UNKNOWN;
  }
}

/** A unary call's arguments after the request, as grpc-js's overloads take them: ([metadata], [options], callback). */
export function unaryArguments(
  path: string,
  first: unknown,
  second: unknown,
  third: unknown,
): { metadata: Metadata | undefined; options: grpc.CallOptions | undefined; callback: grpc.requestCallback<unknown> } {
  let metadata: Metadata | undefined;
  let options: grpc.CallOptions | undefined;
  let callback: unknown;
  if (typeof third === 'function') {
    metadata = first as Metadata | undefined;
    options = second as grpc.CallOptions | undefined;
    callback = third;
  } else if (typeof second === 'function') {
    if (first instanceof Metadata) metadata = first;
    else options = first as grpc.CallOptions | undefined;
    callback = second;
  } else {
    callback = first;
  }
  if (typeof callback !== 'function') throw new Error(`${path}: a unary call needs a callback`);
  return { metadata, options, callback: callback as grpc.requestCallback<unknown> };
}
