import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type * as grpc from '@grpc/grpc-js';
import { serviceError } from './errors.js';
import { Metadata, Status } from './grpc-js.js';
import { type Caller, type InProcessServerCall, type InProcessServerStreamCall, messageOf, type Method, openCall } from './in-process.js';

// The calling side of the in-process transport (in-process.ts has the serving side): call
// objects that behave as grpc-js's do, on a call opened straight on the server's endpoint.

/** A unary call as its caller holds it: 'metadata' and 'status' events, cancel(). */
class InProcessUnaryCall extends EventEmitter implements grpc.ClientUnaryCall, Caller {
  readonly #method: Method;
  readonly #address: string;
  readonly #callback: grpc.requestCallback<unknown>;
  #server: InProcessServerCall | undefined;
  #response: unknown = undefined;
  #answered = false;

  constructor(method: Method, address: string, callback: grpc.requestCallback<unknown>) {
    super();
    this.#method = method;
    this.#address = address;
    this.#callback = callback;
  }

  open(argument: unknown, metadata: Metadata | undefined, options: grpc.CallOptions | undefined): void {
    this.#server = openCall(this.#address, this.#method, argument, metadata, options, this);
  }

  cancel(): void {
    this.#server?.abort(Status.CANCELLED, 'Cancelled on client');
  }

  getPeer(): string {
    return this.#address;
  }

  getAuthContext(): null {
    return null;
  }

  receiveMetadata(metadata: Metadata | undefined): void {
    if (metadata !== undefined) this.emit('metadata', metadata);
    else if (this.listenerCount('metadata') > 0) this.emit('metadata', new Metadata());
  }

  receiveMessage(message: Buffer): boolean {
    try {
      this.#response = this.#method.responseDeserialize(message);
      this.#answered = true;
    } catch (error) {
      this.#server?.abort(Status.INTERNAL, `Response message parsing error: ${messageOf(error)}`);
    }
    return true;
  }

  receiveStatus(code: Status, details: string, metadata: Metadata | undefined): void {
    // Never inside the handler's own code: a callback that throws must not throw into it.
    process.nextTick(InProcessUnaryCall.#settle, this, code, details, metadata);
  }

  static #settle(call: InProcessUnaryCall, code: Status, details: string, metadata: Metadata | undefined): void {
    if (code === Status.OK && !call.#answered) {
      code = Status.UNIMPLEMENTED;
      details = 'No message received';
    }
    if (code === Status.OK) call.#callback(null, call.#response);
    else call.#callback(serviceError(code, details, metadata ?? new Metadata()));
    if (call.listenerCount('status') > 0) call.emit('status', { code, details, metadata: metadata ?? new Metadata() });
  }
}

/** A server stream as its caller reads it: a Readable of messages with 'metadata', 'error' and 'status', and cancel(). */
class InProcessResponseStream extends Readable implements grpc.ClientReadableStream<unknown>, Caller {
  readonly deserialize: (chunk: Buffer) => unknown;
  readonly #method: Method;
  readonly #address: string;
  #server: InProcessServerStreamCall | undefined;

  constructor(method: Method, address: string) {
    super({ objectMode: true });
    this.#method = method;
    this.#address = address;
    this.deserialize = method.responseDeserialize;
  }

  open(argument: unknown, metadata: Metadata | undefined, options: grpc.CallOptions | undefined): void {
    this.#server = openCall(this.#address, this.#method, argument, metadata, options, this) as InProcessServerStreamCall | undefined;
  }

  cancel(): void {
    this.#server?.abort(Status.CANCELLED, 'Cancelled on client');
  }

  getPeer(): string {
    return this.#address;
  }

  getAuthContext(): null {
    return null;
  }

  override _read(): void {
    this.#server?.resumeWriter();
  }

  receiveMetadata(metadata: Metadata | undefined): void {
    if (metadata !== undefined) this.emit('metadata', metadata);
    else if (this.listenerCount('metadata') > 0) this.emit('metadata', new Metadata());
  }

  receiveMessage(message: Buffer): boolean {
    let decoded: unknown;
    try {
      decoded = this.deserialize(message);
    } catch (error) {
      this.#server?.abort(Status.INTERNAL, `Response message parsing error: ${messageOf(error)}`);
      return false;
    }
    return this.push(decoded);
  }

  receiveStatus(code: Status, details: string, metadata: Metadata | undefined): void {
    if (code === Status.OK) {
      this.push(null);
      if (this.listenerCount('status') > 0) this.emit('status', { code, details, metadata: metadata ?? new Metadata() });
      return;
    }
    // A failure arrives on a later turn of the event loop, as it would after I/O: a reader that
    // took a message and is still attaching its listeners (promise continuations) sees it.
    setImmediate(InProcessResponseStream.#fail, this, code, details, metadata);
  }

  static #fail(stream: InProcessResponseStream, code: Status, details: string, metadata: Metadata | undefined): void {
    const trailers = metadata ?? new Metadata();
    stream.push(null);
    stream.emit('error', serviceError(code, details, trailers));
    stream.emit('status', { code, details, metadata: trailers });
  }
}

/** A unary call's arguments after the request, as grpc-js's overloads take them: ([metadata], [options], callback). */
function unaryArguments(
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

/**
 * What the gateway uses of a generated grpc-js client, for an inproc: address: a function per
 * method (under its proto name and its camelCase name, as grpc-js defines them) and close().
 */
class InProcessClient {
  readonly #address: string;
  #closed = false;

  constructor(service: grpc.ServiceDefinition, address: string) {
    this.#address = address;
    const methods = this as unknown as Record<string, unknown>;
    for (const [name, method] of Object.entries(service) as [string, Method][]) {
      const invoke = method.requestStream
        ? () => {
            throw new Error(`${method.path}: client-streaming calls are not served in process`);
          }
        : method.responseStream
          ? (argument: unknown, metadata?: Metadata | grpc.CallOptions, options?: grpc.CallOptions) =>
              this.#serverStream(method, argument, metadata, options)
          : (argument: unknown, first?: unknown, second?: unknown, third?: unknown) => this.#unary(method, argument, first, second, third);
      methods[name] = invoke;
      if (method.originalName !== undefined) methods[method.originalName] = invoke;
    }
  }

  /** Later calls throw, as on a closed grpc-js channel; calls under way run on. */
  close(): void {
    this.#closed = true;
  }

  /** grpc-js's overloads: (argument, [metadata], [options], callback). */
  #unary(method: Method, argument: unknown, first: unknown, second: unknown, third: unknown): grpc.ClientUnaryCall {
    const { metadata, options, callback } = unaryArguments(method.path, first, second, third);
    this.#checkOpen();
    const call = new InProcessUnaryCall(method, this.#address, callback);
    call.open(argument, metadata, options);
    return call;
  }

  #serverStream(
    method: Method,
    argument: unknown,
    metadataOrOptions: Metadata | grpc.CallOptions | undefined,
    options: grpc.CallOptions | undefined,
  ): grpc.ClientReadableStream<unknown> {
    this.#checkOpen();
    const stream = new InProcessResponseStream(method, this.#address);
    if (metadataOrOptions instanceof Metadata) stream.open(argument, metadataOrOptions, options);
    else stream.open(argument, undefined, metadataOrOptions);
    return stream;
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error('Channel has been shut down');
  }
}

/** A client for `service` that calls whatever this process serves at `address` (an inproc: address). */
export function createInProcessClient(service: grpc.ServiceDefinition, address: string): unknown {
  return new InProcessClient(service, address);
}
