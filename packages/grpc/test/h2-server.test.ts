import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import http2, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { GatewayError } from '@gateway/errors';
import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { describe, expect, it } from 'vitest';
import { createClient, fromServiceError, GrpcServer, isTransportUnavailable, unary, type GrpcServerOptions } from '../src/index.js';
import { closeAfterTest } from './serve.js';

// The gateway's own HTTP/2 gRPC server (transport h2) against grpc-js's client and raw HTTP/2
// requests: the protocol's edges (methods, content types, framing, deadlines, compression), big
// messages, metadata, errors in trailers, connection age, shutdown, and clients that vanish.

const CHAT = '/gateway.chat.v1.ChatService';
type ChatHandlers = Partial<Record<'ListModels' | 'CreateChatCompletion' | 'StreamChatCompletion', grpc.UntypedHandleCall>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** An h2 GrpcServer on 127.0.0.1 with the chat handlers `build` makes, and a grpc-js client for it; both closed after the test. */
async function start(
  build: (server: GrpcServer) => ChatHandlers,
  options: Partial<GrpcServerOptions> = {},
): Promise<{ server: GrpcServer; port: number; client: ChatServiceClient }> {
  const server = new GrpcServer({ logger: silentLogger(), service: 'test', shutdownGraceMs: 500, ...options, transport: 'h2' });
  server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, build(server));
  const port = await server.listen('127.0.0.1:0');
  closeAfterTest(() => server.close());
  const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, `127.0.0.1:${port}`, {}, 'grpc-js');
  closeAfterTest(() => client.close());
  return { server, port, client };
}

const COMPLETION_REQUEST = { key_id: 'k', model: 'm', body: Buffer.alloc(0) };

/** CreateChatCompletion through grpc-js: the response or the ServiceError. */
function complete(
  client: ChatServiceClient,
  body: Buffer,
  metadata = new grpc.Metadata(),
  deadlineMs = 10_000,
): Promise<{ body: Buffer } | grpc.ServiceError> {
  return new Promise((resolve) => {
    client.CreateChatCompletion({ ...COMPLETION_REQUEST, body }, metadata, { deadline: Date.now() + deadlineMs }, (error, response) =>
      resolve(error ?? { body: response?.body ?? Buffer.alloc(0) }),
    );
  });
}

function serialize(method: 'ListModels' | 'CreateChatCompletion' | 'StreamChatCompletion', request: object): Buffer {
  return (protos().gateway.chat.v1.ChatService.service[method] as grpc.MethodDefinition<object, unknown>).requestSerialize(request);
}

function frame(message: Buffer, compressed = false): Buffer {
  const prefix = Buffer.alloc(5);
  prefix[0] = compressed ? 1 : 0;
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

interface RawAnswer {
  status: number;
  grpcStatus: string | undefined;
  grpcMessage: string | undefined;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a fresh raw HTTP/2 connection: what came back, headers, body and status (from trailers, or a trailers-only answer). */
function raw(port: number, headers: OutgoingHttpHeaders, chunks: Buffer[] = []): Promise<RawAnswer> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  closeAfterTest(() => session.destroy());
  return new Promise((resolve) => {
    const stream = session.request(
      { ':method': 'POST', ':path': `${CHAT}/ListModels`, 'content-type': 'application/grpc', te: 'trailers', ...headers },
      { endStream: chunks.length === 0 },
    );
    let response: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const data: Buffer[] = [];
    stream.on('response', (received) => {
      response = received;
    });
    stream.on('trailers', (received) => {
      trailers = received;
    });
    stream.on('data', (chunk: Buffer) => data.push(chunk));
    stream.on('error', () => undefined);
    stream.on('close', () => {
      const status = trailers['grpc-status'] ?? response['grpc-status'];
      const message = trailers['grpc-message'] ?? response['grpc-message'];
      resolve({
        status: Number(response[':status']),
        grpcStatus: typeof status === 'string' ? status : undefined,
        grpcMessage: typeof message === 'string' ? decodeURIComponent(message) : undefined,
        headers: response,
        body: Buffer.concat(data),
      });
    });
    for (const chunk of chunks) stream.write(chunk);
    if (chunks.length > 0) stream.end();
  });
}

const noModels = (server: GrpcServer): ChatHandlers => ({ ListModels: server.unary('ListModels', async () => ({ groups: [] })) });

describe('the h2 gRPC server', () => {
  it('answers a method it does not serve UNIMPLEMENTED, in grpc-js words', async () => {
    const { port } = await start(noModels);
    const Generic = grpc.makeGenericClientConstructor(
      {
        Nope: {
          path: `${CHAT}/Nope`,
          requestStream: false,
          responseStream: false,
          requestSerialize: (value: Buffer) => value,
          requestDeserialize: (value: Buffer) => value,
          responseSerialize: (value: Buffer) => value,
          responseDeserialize: (value: Buffer) => value,
        },
      },
      'Chat',
    );
    const client = new Generic(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    closeAfterTest(() => client.close());
    const error = await new Promise<grpc.ServiceError | null>((resolve) => {
      (client as unknown as { Nope: (request: Buffer, callback: (error: grpc.ServiceError | null) => void) => void }).Nope(
        Buffer.alloc(0),
        resolve,
      );
    });
    expect(error).toMatchObject({ code: grpc.status.UNIMPLEMENTED, details: `The server does not implement the method ${CHAT}/Nope` });
  });

  it('answers what is not a gRPC request as grpc-go does: 415 for another content type, 405 for another method', async () => {
    const { port } = await start(noModels);
    const json = await raw(port, { 'content-type': 'application/json' }, [Buffer.from('{}')]);
    expect(json).toMatchObject({ status: 415, grpcStatus: String(grpc.status.INVALID_ARGUMENT) });
    const get = await raw(port, { ':method': 'GET' });
    expect(get).toMatchObject({ status: 405, grpcStatus: String(grpc.status.INTERNAL) });
    // A gRPC request still works, over the same kind of raw connection.
    const ok = await raw(port, {}, [frame(serialize('ListModels', {}))]);
    expect(ok).toMatchObject({ status: 200, grpcStatus: '0' });
    expect(ok.headers).toMatchObject({ 'content-type': 'application/grpc', 'grpc-accept-encoding': 'identity' });
  });

  it('refuses requests it cannot read with the status grpc-js gives', async () => {
    let handled = 0;
    const { port } = await start((server) => ({
      ListModels: server.unary('ListModels', async () => {
        handled += 1;
        return { groups: [] };
      }),
    }));
    const message = serialize('ListModels', {});
    const none = await raw(port, {});
    expect(none).toMatchObject({ grpcStatus: String(grpc.status.UNIMPLEMENTED) });
    expect(none.grpcMessage).toContain('Received no request message');
    const two = await raw(port, {}, [frame(message), frame(message)]);
    expect(two).toMatchObject({ grpcStatus: String(grpc.status.UNIMPLEMENTED) });
    expect(two.grpcMessage).toContain('Received a second request message');
    const compressed = await raw(port, {}, [frame(message, true)]);
    expect(compressed).toMatchObject({ grpcStatus: String(grpc.status.INTERNAL) });
    const gzip = await raw(port, { 'grpc-encoding': 'gzip' }, [frame(message, true)]);
    expect(gzip).toMatchObject({ grpcStatus: String(grpc.status.UNIMPLEMENTED) });
    expect(gzip.grpcMessage).toBe('Received message compressed with unsupported encoding "gzip"');
    const tooLarge = Buffer.alloc(5);
    tooLarge.writeUInt32BE(64 * 1024 * 1024 + 1, 1);
    const large = await raw(port, {}, [tooLarge, Buffer.alloc(1024)]);
    expect(large).toMatchObject({ grpcStatus: String(grpc.status.RESOURCE_EXHAUSTED) });
    const garbage = await raw(port, {}, [frame(Buffer.from([0xff, 0xff, 0xff]))]);
    expect(garbage).toMatchObject({ grpcStatus: String(grpc.status.INTERNAL) });
    const badTimeout = await raw(port, { 'grpc-timeout': 'soon' }, [frame(message)]);
    expect(badTimeout).toMatchObject({ grpcStatus: String(grpc.status.INTERNAL) });
    expect(handled).toBe(0);
    // One message split over DATA frames byte by byte is still one message.
    const split = await raw(
      port,
      {},
      [...frame(message)].map((byte) => Buffer.from([byte])),
    );
    expect(split).toMatchObject({ grpcStatus: '0' });
    expect(handled).toBe(1);
  });

  it('ends a call at the deadline its grpc-timeout sets, and aborts the handler', async () => {
    let deadline: grpc.Deadline | undefined;
    let handlerAborted: Promise<void> | undefined;
    const { port } = await start((server) => ({
      ListModels: server.unary('ListModels', async (_request: unknown, call) => {
        handlerAborted = aborted(call.signal);
        await handlerAborted;
        return { groups: [] };
      }),
      CreateChatCompletion: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        deadline = call.getDeadline();
        callback(null, { body: Buffer.alloc(0) });
      },
    }));
    const started = Date.now();
    const answer = await raw(port, { 'grpc-timeout': '150m' }, [frame(serialize('ListModels', {}))]);
    expect(answer).toMatchObject({ grpcStatus: String(grpc.status.DEADLINE_EXCEEDED) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(1000);
    await handlerAborted;

    const before = Date.now();
    await raw(port, { ':path': `${CHAT}/CreateChatCompletion`, 'grpc-timeout': '2S' }, [
      frame(serialize('CreateChatCompletion', COMPLETION_REQUEST)),
    ]);
    expect(Number(deadline)).toBeGreaterThanOrEqual(before + 1900);
    expect(Number(deadline)).toBeLessThanOrEqual(Date.now() + 2000);
  });

  it('tells the handler when a grpc-js client cancels', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let handlerAborted: Promise<void> | undefined;
    const { client } = await start((server) => ({
      ListModels: server.unary('ListModels', async (_request: unknown, call) => {
        handlerAborted = aborted(call.signal);
        started();
        await handlerAborted;
        return { groups: [] };
      }),
    }));
    const ended = new Promise<grpc.ServiceError | null>((resolve) => {
      const call = client.ListModels({}, (error) => resolve(error));
      void running.then(() => call.cancel());
    });
    expect(await ended).toMatchObject({ code: grpc.status.CANCELLED });
    await handlerAborted;
  });

  it('carries messages over 64 KiB and of several MiB both ways, and refuses one over 64 MiB', async () => {
    const { client } = await start((server) => ({
      // The body back, reversed, so each byte really made the trip.
      CreateChatCompletion: server.unary('CreateChatCompletion', async (request: { body: Buffer }) => ({
        body: request.body.toString() === 'too large' ? Buffer.alloc(65 * 1024 * 1024) : Buffer.from(request.body).reverse(),
      })),
      StreamChatCompletion: server.serverStream('StreamChatCompletion', async (request: { body: Buffer }, write) => {
        for (let i = 0; i < 3; i += 1) await write({ chunks: [request.body, Buffer.alloc(3 * 1024 * 1024, i)], usage: null });
      }),
    }));
    for (const size of [100 * 1024, 9 * 1024 * 1024]) {
      const body = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4096) body[i] = i % 251;
      const answer = await complete(client, body);
      expect(answer).not.toBeInstanceOf(Error);
      expect((answer as { body: Buffer }).body.equals(Buffer.from(body).reverse())).toBe(true);
    }
    const request = Buffer.alloc(5 * 1024 * 1024, 7);
    const stream = client.StreamChatCompletion({ ...COMPLETION_REQUEST, body: request, group: '', completion_id: '' });
    const digests: string[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (message: { chunks: Buffer[] }) => {
        expect(message.chunks[0]?.equals(request)).toBe(true);
        digests.push(
          createHash('sha1')
            .update(message.chunks[1] ?? Buffer.alloc(0))
            .digest('hex'),
        );
      });
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    expect(digests).toEqual(
      [0, 1, 2].map((i) =>
        createHash('sha1')
          .update(Buffer.alloc(3 * 1024 * 1024, i))
          .digest('hex'),
      ),
    );
    // The handler's answer is over the limit: the call fails, the server does not send it.
    const tooLarge = await complete(client, Buffer.from('too large'));
    expect(tooLarge).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
  });

  it('carries binary and text metadata both ways: request, leading and trailing', async () => {
    const blob = Buffer.from([0, 1, 2, 0xfe, 0xff]);
    let seen: { blob: unknown; text: unknown } | undefined;
    const { client } = await start(() => ({
      CreateChatCompletion: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        seen = { blob: call.metadata.get('x-blob-bin')[0], text: call.metadata.get('x-text')[0] };
        const leading = new grpc.Metadata();
        leading.set('x-leading-bin', Buffer.concat([blob, blob]));
        leading.set('x-leading', 'hello');
        call.sendMetadata(leading);
        const trailing = new grpc.Metadata();
        trailing.set('x-trailing-bin', Buffer.from([0xff, 0]));
        callback(null, { body: Buffer.from('ok') }, trailing);
      },
    }));
    const metadata = new grpc.Metadata();
    metadata.set('x-blob-bin', blob);
    metadata.set('x-text', 'plain text');
    const received = await new Promise<{ leading: grpc.Metadata; trailing: grpc.Metadata; body: Buffer }>((resolve, reject) => {
      let leading = new grpc.Metadata();
      let body: Buffer = Buffer.alloc(0);
      const call = client.CreateChatCompletion(COMPLETION_REQUEST, metadata, (error, response) => {
        if (error) reject(error);
        body = response?.body ?? body;
      });
      call.on('metadata', (m: grpc.Metadata) => {
        leading = m;
      });
      call.on('status', (status: grpc.StatusObject) => resolve({ leading, trailing: status.metadata, body }));
    });
    expect(seen).toEqual({ blob, text: 'plain text' });
    expect(received.leading.get('x-leading-bin')).toEqual([Buffer.concat([blob, blob])]);
    expect(received.leading.get('x-leading')).toEqual(['hello']);
    expect(received.trailing.get('x-trailing-bin')).toEqual([Buffer.from([0xff, 0])]);
    expect(received.body.toString()).toBe('ok');
  });

  it('sends GatewayErrors in trailers: trailers-only before any message, after messages on a stream', async () => {
    const { client } = await start((server) => ({
      ListModels: server.unary('ListModels', async () => {
        throw new GatewayError('upstream_rate_limited', { param: 'model', retryAfterSeconds: 7, message: 'slow down ✋ 100%' });
      }),
      StreamChatCompletion: server.serverStream('StreamChatCompletion', async (_request, write, call) => {
        call.upstreamMs = 5;
        await write({ chunks: [Buffer.from('a')], usage: null });
        throw new GatewayError('invalid_request', { param: 'messages', message: 'bad messages' });
      }),
    }));
    const error = await new Promise<grpc.ServiceError | null>((resolve) => client.ListModels({}, (e) => resolve(e)));
    expect(error).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED, details: 'slow down ✋ 100%' });
    expect(fromServiceError(error as grpc.ServiceError)).toMatchObject({
      code: 'upstream_rate_limited',
      param: 'model',
      retryAfterSeconds: 7,
      message: 'slow down ✋ 100%',
    });

    const stream = client.StreamChatCompletion({ ...COMPLETION_REQUEST, group: '', completion_id: '' });
    const chunks: string[] = [];
    stream.on('data', (message: { chunks: Buffer[] }) => chunks.push(...message.chunks.map(String)));
    const streamError = await new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
    expect(chunks).toEqual(['a']);
    expect(fromServiceError(streamError)).toMatchObject({ code: 'invalid_request', param: 'messages', message: 'bad messages' });
  });

  it('ages connections out: calls under way finish, the client reconnects, new calls are served', async () => {
    const peer = (call: grpc.ServerUnaryCall<unknown, unknown>) => ({ groups: [{ id: call.getPeer() }] });
    const { client } = await start(
      () => ({
        ListModels: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => callback(null, peer(call)),
        CreateChatCompletion: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          setTimeout(() => callback(null, { body: Buffer.from(call.getPeer()) }), 600);
        },
      }),
      { maxConnectionAgeMs: 250, maxConnectionAgeGraceMs: 5000 },
    );
    const first = (await unary(client, client.ListModels, {})).groups[0]?.id;
    expect(first).toMatch(/^127\.0\.0\.1:\d+$/);
    const slow = complete(client, Buffer.alloc(0));
    await sleep(400); // past the age (250 ms ± 10%): the connection got its GOAWAY
    const second = (await unary(client, client.ListModels, {})).groups[0]?.id;
    expect(second).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(second).not.toBe(first);
    const answered = await slow;
    expect(answered).not.toBeInstanceOf(Error);
    expect((answered as { body: Buffer }).body.toString()).toBe(first);
  });

  it('cuts calls still running when a connection outlives its grace', async () => {
    let handlerAborted: Promise<void> | undefined;
    const { client } = await start(
      (server) => ({
        ListModels: server.unary('ListModels', async (_request: unknown, call) => {
          handlerAborted = aborted(call.signal);
          await handlerAborted;
          return { groups: [] };
        }),
      }),
      { maxConnectionAgeMs: 100, maxConnectionAgeGraceMs: 200 },
    );
    const started = Date.now();
    const error = await unary(client, client.ListModels, {}, { retries: 0, deadlineMs: 5000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(isTransportUnavailable((error as GatewayError).cause)).toBe(true);
    await handlerAborted;
  });

  it('drains on close: streams under way finish, new calls are refused; past the grace the rest are cut', async () => {
    let release: () => void = () => undefined;
    let cutAborted: Promise<void> | undefined;
    const { server, port, client } = await start(
      (server) => ({
        StreamChatCompletion: server.serverStream('StreamChatCompletion', async (_request, write) => {
          await write({ chunks: [Buffer.from('one')], usage: null });
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          await write({ chunks: [Buffer.from('two')], usage: null });
        }),
        ListModels: server.unary('ListModels', async (_request: unknown, call) => {
          cutAborted = aborted(call.signal);
          await cutAborted;
          return { groups: [] };
        }),
      }),
      { shutdownGraceMs: 1000 },
    );
    const stream = client.StreamChatCompletion({ ...COMPLETION_REQUEST, group: '', completion_id: '' });
    const chunks: string[] = [];
    const streamEnded = new Promise<unknown>((resolve) => {
      stream.on('data', (message: { chunks: Buffer[] }) => chunks.push(...message.chunks.map(String)));
      stream.on('end', () => resolve(undefined));
      stream.on('error', resolve);
    });
    await new Promise((resolve) => stream.once('data', resolve));
    const stuck = unary(client, client.ListModels, {}, { retries: 0, deadlineMs: 5000 }).catch((e: unknown) => e);
    await sleep(50);
    const startedClosing = Date.now();
    const closing = server.close();
    const refused = await unary(client, client.ListModels, {}, { retries: 0 }).catch((e: unknown) => e);
    expect(isTransportUnavailable((refused as GatewayError).cause)).toBe(true);
    release();
    expect(await streamEnded).toBeUndefined();
    expect(chunks).toEqual(['one', 'two']);
    // The stuck call holds the drain until the grace ends; then it is cut.
    await closing;
    expect(Date.now() - startedClosing).toBeGreaterThanOrEqual(900);
    await cutAborted;
    const cut = await stuck;
    expect(isTransportUnavailable((cut as GatewayError).cause)).toBe(true);
    // The port is free again.
    const again = new GrpcServer({ logger: silentLogger(), transport: 'h2', shutdownGraceMs: 100 });
    expect(await again.listen(`127.0.0.1:${port}`)).toBe(port);
    await again.close();
  });

  it('fails to listen on a port already taken as Node does (EADDRINUSE with the port), like the grpc-js transport', async () => {
    const { port } = await start(noModels);
    const errors: unknown[] = [];
    for (const transport of ['h2', 'grpc-js'] as const) {
      const second = new GrpcServer({ logger: silentLogger(), transport, shutdownGraceMs: 100 });
      closeAfterTest(() => second.close());
      errors.push(await second.listen(`127.0.0.1:${port}`).catch((e: unknown) => e));
    }
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ code: 'EADDRINUSE', port, message: `listen EADDRINUSE: address already in use 127.0.0.1:${port}` });
    }
  });

  it('listens on 0.0.0.0, [::] and localhost too', async () => {
    for (const host of ['0.0.0.0', '[::]', 'localhost']) {
      const server = new GrpcServer({ logger: silentLogger(), transport: 'h2', shutdownGraceMs: 100 });
      server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, noModels(server));
      closeAfterTest(() => server.close());
      const port = await server.listen(`${host}:0`);
      expect(port).toBeGreaterThan(0);
      const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, `127.0.0.1:${port}`, {}, 'grpc-js');
      closeAfterTest(() => client.close());
      expect(await unary(client, client.ListModels, {})).toEqual({ groups: [] });
    }
  });

  it('serves 2,000 calls at once on one connection', async () => {
    const total = 2000;
    let inFlight = 0;
    let peak = 0;
    let releaseAll: () => void = () => undefined;
    const allIn = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    const { client } = await start((server) => ({
      ListModels: server.unary('ListModels', async (_request: unknown, call) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        if (inFlight === total) releaseAll();
        await allIn;
        inFlight -= 1;
        return { groups: [{ id: call.requestId ?? '' }] };
      }),
    }));
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) => unary(client, client.ListModels, {}, { requestId: `r${i}`, deadlineMs: 10_000 })),
    );
    expect(peak).toBe(total);
    expect(answers.map((answer) => answer.groups[0]?.id)).toEqual(Array.from({ length: total }, (_, i) => `r${i}`));
  });

  it('survives a client that vanishes mid-stream: the handler sees the cancel, the server serves on', async () => {
    let handlerEnded: (error: unknown) => void = () => undefined;
    const ended = new Promise<unknown>((resolve) => {
      handlerEnded = resolve;
    });
    const { port, client } = await start((server) => ({
      ListModels: server.unary('ListModels', async () => ({ groups: [] })),
      StreamChatCompletion: server.serverStream('StreamChatCompletion', async (_request, write, call) => {
        try {
          for (;;) {
            await write({ chunks: [Buffer.alloc(1024, 'x')], usage: null });
            await sleep(5);
          }
        } catch (error) {
          handlerEnded(call.signal.aborted ? error : new Error('not aborted'));
          throw error;
        }
      }),
    }));
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', () => undefined);
    const stream = session.request({
      ':method': 'POST',
      ':path': `${CHAT}/StreamChatCompletion`,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    stream.on('error', () => undefined);
    stream.end(frame(serialize('StreamChatCompletion', { ...COMPLETION_REQUEST, group: '', completion_id: '' })));
    await new Promise((resolve) => stream.once('data', resolve));
    session.destroy(); // the socket goes, no RST_STREAM, no GOAWAY
    expect(await ended).toBeInstanceOf(GatewayError);
    expect(await unary(client, client.ListModels, {})).toEqual({ groups: [] });
  });

  it('answers deploy/grpc-health.mjs (a grpc-js health probe)', async () => {
    const { port } = await start(noModels);
    const script = fileURLToPath(new URL('../../../deploy/grpc-health.mjs', import.meta.url));
    const probe = (...args: string[]) =>
      new Promise<number>((resolve) => {
        execFile(process.execPath, [script, ...args], { timeout: 10_000 }, (error) => resolve(error ? Number(error.code ?? 1) : 0));
      });
    const [serving, unknown] = await Promise.all([probe(`127.0.0.1:${port}`), probe(`127.0.0.1:${port}`, 'no.such.Service')]);
    expect(serving).toBe(0);
    expect(unknown).toBe(1);
  });
});
