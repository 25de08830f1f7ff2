import { EventEmitter } from 'node:events';
import type * as grpc from '@grpc/grpc-js';
import { Metadata, Status } from './grpc-js.js';
import { MAX_MESSAGE_BYTES } from './options.js';

// Calls between services that share one process, without a socket (the serving side here; the
// calling side is in-process-client.ts). A GrpcServer publishes its
// handlers under an `inproc:` address; a client created for that address calls them directly
// with a synthetic call object. Only HTTP/2 and the socket are left out: every request and
// response still goes through the method's serializer and deserializer (so proto defaults, enum
// strings and 64-bit numbers read exactly as over gRPC), failures arrive as grpc-js
// ServiceErrors, deadlines and cancellation reach the handler as 'cancelled', a closing server
// refuses calls with UNAVAILABLE, and a slow reader holds its writer back (flow control).

export const IN_PROCESS_SCHEME = 'inproc:';

/** True for an address served in this process (`inproc:NAME`) rather than over a socket. */
export function isInProcessAddress(address: string): boolean {
  return address.startsWith(IN_PROCESS_SCHEME);
}

/** The in-process address named `name`. */
export function inProcessAddress(name: string): string {
  return `${IN_PROCESS_SCHEME}${name}`;
}

export type Method = grpc.MethodDefinition<unknown, unknown>;

/** A method a server answers, by the kind of handler it has. */
type ServedMethod = {
  readonly definition: Method;
  /** Still answered while the server drains (health: it says NOT_SERVING rather than refusing). */
  readonly answeredWhileDraining: boolean;
} & (
  | { readonly kind: 'unary'; readonly handler: grpc.handleUnaryCall<unknown, unknown> }
  | { readonly kind: 'serverStream'; readonly handler: grpc.handleServerStreamingCall<unknown, unknown> }
);

/** What the calling side of a call is told; implemented by the client's call objects. */
export interface Caller {
  /** Leading metadata; undefined stands for empty (built only when someone listens). */
  receiveMetadata(metadata: Metadata | undefined): void;
  /** A serialized response; false while the caller holds as many as it buffers (flow control). */
  receiveMessage(message: Buffer): boolean;
  /** The call's end; undefined metadata stands for empty. */
  receiveStatus(code: Status, details: string, metadata: Metadata | undefined): void;
}

/**
 * Adds a service's implemented unary and server-streaming methods to `methods`, by path
 * (client-streaming ones are left out: the gateway's handlers never take a request stream).
 */
function addServedMethods(
  methods: Map<string, ServedMethod>,
  definition: grpc.ServiceDefinition,
  implementation: grpc.UntypedServiceImplementation,
  answeredWhileDraining: boolean,
): void {
  for (const [name, method] of Object.entries(definition) as [string, Method][]) {
    const handler = implementation[name] ?? (method.originalName === undefined ? undefined : implementation[method.originalName]);
    if (handler === undefined || method.requestStream) continue;
    methods.set(
      method.path,
      method.responseStream
        ? {
            definition: method,
            answeredWhileDraining,
            kind: 'serverStream',
            handler: handler as grpc.handleServerStreamingCall<unknown, unknown>,
          }
        : { definition: method, answeredWhileDraining, kind: 'unary', handler: handler as grpc.handleUnaryCall<unknown, unknown> },
    );
  }
}

/** Every published endpoint of this process, by address. */
const endpoints = new Map<string, InProcessEndpoint>();

/**
 * A GrpcServer's handlers as callers in the same process reach them. It refuses new calls once
 * draining (except those answered while draining) and tracks the calls it runs, so a shutdown
 * can wait for them or cut them.
 */
export class InProcessEndpoint {
  readonly #methods = new Map<string, ServedMethod>();
  readonly #calls = new Set<InProcessServerCall>();
  readonly #addresses = new Set<string>();
  #state: 'serving' | 'draining' | 'closed' = 'serving';
  #idleWaiters: (() => void)[] = [];

  /** Registers a service's implemented methods (client-streaming ones are not served in process). */
  addService(definition: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation, answeredWhileDraining = false): void {
    addServedMethods(this.#methods, definition, implementation, answeredWhileDraining);
  }

  /** Answers clients in this process that dial `address` (an inproc: address). */
  publish(address: string): void {
    if (!isInProcessAddress(address)) throw new Error(`an in-process address starts with ${IN_PROCESS_SCHEME}, not ${address}`);
    if (this.#state === 'closed') throw new Error(`a closed server cannot serve ${address}`);
    const current = endpoints.get(address);
    if (current !== undefined && current !== this) {
      throw Object.assign(new Error(`listen EADDRINUSE: address already in use ${address}`), { code: 'EADDRINUSE' });
    }
    endpoints.set(address, this);
    this.#addresses.add(address);
  }

  /** New calls are refused from now on, as a server that stopped accepting connections refuses them. */
  drain(): void {
    if (this.#state === 'serving') this.#state = 'draining';
  }

  /** Resolves once no call runs. */
  idle(): Promise<void> {
    if (this.#calls.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Cuts every call still running: handlers see 'cancelled', callers UNAVAILABLE (a dropped connection). */
  cutAll(): void {
    for (const call of [...this.#calls]) call.abort(Status.UNAVAILABLE, 'Connection dropped: the server shut down');
  }

  /** Unpublishes: calls to its addresses fail as calls to nothing listening do. */
  close(): void {
    this.#state = 'closed';
    for (const address of this.#addresses) if (endpoints.get(address) === this) endpoints.delete(address);
    this.#addresses.clear();
  }

  /** Starts a call, or tells the caller why it cannot start (then returns undefined). */
  open(
    path: string,
    request: Buffer,
    metadata: Metadata,
    deadline: number,
    caller: Caller,
    address: string,
  ): InProcessServerCall | undefined {
    const served = this.#methods.get(path);
    if (this.#state !== 'serving' && !(this.#state === 'draining' && served?.answeredWhileDraining)) {
      caller.receiveStatus(Status.UNAVAILABLE, `No connection established: ${address} is shutting down`, undefined);
      return undefined;
    }
    if (served === undefined) {
      caller.receiveStatus(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`, undefined);
      return undefined;
    }
    // The server gets metadata of its own, as it would from the wire (a caller reuses its own on retries).
    const call =
      served.kind === 'unary'
        ? new InProcessServerUnaryCall(this, served, request, metadata.clone(), deadline, caller, address)
        : new InProcessServerStreamCall(this, served, request, metadata.clone(), deadline, caller, address);
    this.#calls.add(call);
    // The handler runs after the caller's code has attached its listeners, as it would after I/O.
    process.nextTick(startCall, call);
    return call;
  }

  /** A call of this endpoint ended. */
  ended(call: InProcessServerCall): void {
    this.#calls.delete(call);
    if (this.#calls.size > 0 || this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function startCall(call: InProcessServerCall): void {
  call.start();
}

function deadlineReached(call: InProcessServerCall): void {
  call.abort(Status.DEADLINE_EXCEEDED, 'Deadline exceeded');
}

function notifyCancelled(call: InProcessServerCall): void {
  call.cancelled = true;
  call.emit('cancelled', 'cancelled');
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A handler's failure as the status it ends the call with (grpc-js's serverErrorToStatus). */
function statusOf(
  error: grpc.ServerErrorResponse | Partial<grpc.StatusObject>,
  trailer: Metadata | undefined,
): { code: Status; details: string; metadata: Metadata | undefined } {
  const validCode = typeof error.code === 'number' && Number.isInteger(error.code);
  const details =
    validCode && typeof error.details === 'string' ? error.details : 'message' in error ? String(error.message) : 'Unknown Error';
  return { code: validCode ? (error.code as Status) : Status.UNKNOWN, details, metadata: trailer ?? error.metadata ?? undefined };
}

/**
 * The handler's side of a call: what grpc-js's ServerUnaryCall and ServerWritableStream offer
 * the gateway's handlers (request, metadata, sendMetadata, getDeadline, 'cancelled').
 */
export abstract class InProcessServerCall extends EventEmitter {
  cancelled = false;
  request: unknown = undefined;
  readonly metadata: Metadata;
  protected readonly served: ServedMethod;
  protected readonly caller: Caller;
  readonly #endpoint: InProcessEndpoint;
  readonly #deadline: number;
  readonly #address: string;
  #requestBytes: Buffer | undefined;
  #timer: NodeJS.Timeout | undefined;
  #metadataSent = false;
  #ended = false;

  constructor(
    endpoint: InProcessEndpoint,
    served: ServedMethod,
    request: Buffer,
    metadata: Metadata,
    deadline: number,
    caller: Caller,
    address: string,
  ) {
    super();
    this.#endpoint = endpoint;
    this.served = served;
    this.#requestBytes = request;
    this.metadata = metadata;
    this.#deadline = deadline;
    this.caller = caller;
    this.#address = address;
    if (deadline !== Number.POSITIVE_INFINITY) this.#timer = setTimeout(deadlineReached, Math.max(0, deadline - Date.now()), this);
  }

  /** Over: answered, failed, cancelled or past its deadline; nothing more reaches the caller. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Reads the request and runs the handler. */
  start(): void {
    if (this.#ended) return;
    try {
      this.request = this.served.definition.requestDeserialize(this.#requestBytes as Buffer);
    } catch (error) {
      this.finish(Status.INTERNAL, `Error deserializing request: ${messageOf(error)}`, undefined);
      return;
    }
    this.#requestBytes = undefined;
    try {
      this.invoke();
    } catch {
      this.finish(Status.UNKNOWN, 'Unknown error', undefined);
    }
  }

  protected abstract invoke(): void;

  sendMetadata(metadata: Metadata): void {
    if (this.#ended || this.#metadataSent) return;
    this.#metadataSent = true;
    this.caller.receiveMetadata(metadata);
  }

  getDeadline(): grpc.Deadline {
    return this.#deadline;
  }

  getPath(): string {
    return this.served.definition.path;
  }

  getPeer(): string {
    return 'in-process';
  }

  getHost(): string {
    return this.#address;
  }

  /** Hands a response to the caller; false when the call ended instead or the caller's buffer is full. */
  protected send(message: unknown): boolean {
    let bytes: Buffer;
    try {
      bytes = this.served.definition.responseSerialize(message);
    } catch {
      this.finish(Status.INTERNAL, 'Error serializing response', undefined);
      return false;
    }
    if (bytes.length > MAX_MESSAGE_BYTES) {
      this.finish(Status.RESOURCE_EXHAUSTED, `Sent message larger than max (${bytes.length} vs. ${MAX_MESSAGE_BYTES})`, undefined);
      return false;
    }
    // A message goes after leading metadata, empty when the handler sent none (as grpc-js does).
    if (!this.#metadataSent) {
      this.#metadataSent = true;
      this.caller.receiveMetadata(undefined);
    }
    return this.caller.receiveMessage(bytes) && !this.#ended;
  }

  /** Ends the call with the handler's status. */
  finish(code: Status, details: string, metadata: Metadata | undefined): void {
    if (!this.#end()) return;
    this.caller.receiveStatus(code, details, metadata);
  }

  /** Ends the call without the handler's answer (cancel, deadline, shutdown): the handler sees 'cancelled'. */
  abort(code: Status, details: string): void {
    if (!this.#end()) return;
    // Told on the next tick, as grpc-js tells it, so no handler code runs inside the caller's cancel().
    process.nextTick(notifyCancelled, this);
    this.caller.receiveStatus(code, details, undefined);
  }

  /** Ends a failed call with the status its error names. */
  fail(error: grpc.ServerErrorResponse | Partial<grpc.StatusObject>, trailer?: Metadata): void {
    if (this.#ended) return;
    const status = statusOf(error, trailer);
    this.finish(status.code, status.details, status.metadata);
  }

  #end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#endpoint.ended(this);
    return true;
  }
}

class InProcessServerUnaryCall extends InProcessServerCall {
  protected invoke(): void {
    if (this.served.kind !== 'unary') return;
    this.served.handler(this as unknown as grpc.ServerUnaryCall<unknown, unknown>, (error, value, trailer) => {
      if (error) this.fail(error, trailer);
      else if (this.send(value)) this.finish(Status.OK, 'OK', trailer);
    });
  }
}

/** Also a writable stream of responses: write() says when to wait for 'drain', end() finishes, an 'error' event fails. */
export class InProcessServerStreamCall extends InProcessServerCall {
  #waitingForDrain = false;

  constructor(...args: ConstructorParameters<typeof InProcessServerCall>) {
    super(...args);
    // grpc-js turns an 'error' event carrying a status into the call's final status.
    this.on('error', failServerStream);
  }

  protected invoke(): void {
    if (this.served.kind !== 'serverStream') return;
    this.served.handler(this as unknown as grpc.ServerWritableStream<unknown, unknown>);
  }

  write(message: unknown): boolean {
    if (this.ended) return false;
    if (this.send(message)) return true;
    if (!this.ended) this.#waitingForDrain = true;
    return false;
  }

  end(metadata?: Metadata): void {
    this.finish(Status.OK, 'OK', metadata);
  }

  /** The caller wants more: a writer held back may go on. */
  resumeWriter(): void {
    if (!this.#waitingForDrain || this.ended) return;
    this.#waitingForDrain = false;
    this.emit('drain');
  }
}

function failServerStream(this: InProcessServerStreamCall, error: grpc.ServerErrorResponse | Partial<grpc.StatusObject>): void {
  this.fail(error);
}

/** Opens a call on whatever serves `address` now; tells the caller when nothing does. */
export function openCall(
  address: string,
  method: Method,
  argument: unknown,
  metadata: Metadata | undefined,
  options: grpc.CallOptions | undefined,
  caller: Caller,
): InProcessServerCall | undefined {
  let request: Buffer;
  try {
    request = method.requestSerialize(argument);
  } catch (error) {
    caller.receiveStatus(Status.INTERNAL, `Request message serialization failure: ${messageOf(error)}`, undefined);
    return undefined;
  }
  if (request.length > MAX_MESSAGE_BYTES) {
    caller.receiveStatus(Status.RESOURCE_EXHAUSTED, `Sent message larger than max (${request.length} vs. ${MAX_MESSAGE_BYTES})`, undefined);
    return undefined;
  }
  const deadline = deadlineMs(options?.deadline);
  // A deadline already past fails the call before it reaches a handler, as grpc-js's client does.
  if (deadline <= Date.now()) {
    caller.receiveStatus(Status.DEADLINE_EXCEEDED, 'Deadline exceeded', undefined);
    return undefined;
  }
  const endpoint = endpoints.get(address);
  if (endpoint === undefined) {
    caller.receiveStatus(Status.UNAVAILABLE, `No connection established: nothing in this process serves ${address}`, undefined);
    return undefined;
  }
  return endpoint.open(method.path, request, metadata ?? new Metadata(), deadline, caller, address);
}

/** A call option's deadline as Unix milliseconds; Infinity when there is none. */
function deadlineMs(deadline: grpc.Deadline | undefined): number {
  if (deadline === undefined) return Number.POSITIVE_INFINITY;
  return deadline instanceof Date ? deadline.getTime() : deadline;
}
