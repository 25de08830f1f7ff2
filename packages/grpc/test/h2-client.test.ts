import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import type { GatewayError } from '@gateway/errors';
import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { describe, expect, it } from 'vitest';
import {
  channelOptions,
  createClient,
  createH2Client,
  GrpcServer,
  isH2Target,
  isTransportUnavailable,
  unary,
  type H2ClientOptions,
} from '../src/index.js';
import { closeAfterTest } from './serve.js';

// The gateway's own HTTP/2 client against real grpc-js servers on loopback (and, for what a
// grpc-js server never sends, a bare http2 server; for a peer that goes silent, a TCP relay).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const chat = () => protos().gateway.chat.v1.ChatService;

function h2Client(target: string, options: H2ClientOptions = {}): ChatServiceClient {
  const client = createH2Client(chat().service, target, options) as ChatServiceClient;
  closeAfterTest(() => client.close());
  return client;
}

/** A grpc-js server (no GrpcServer wrapper, so a test can reach the call and set options) with the chat contract's handlers. */
async function grpcJsServer(
  handlers: grpc.UntypedServiceImplementation,
  options: grpc.ServerOptions = {},
  port = 0,
): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server({ ...channelOptions, ...options });
  server.addService(chat().service, handlers);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
  );
  closeAfterTest(() => server.forceShutdown());
  return { server, port: bound };
}

/** A GrpcServer on grpc-js's transport answering ListModels with one group named `id`. */
async function namedServer(id: string, port = 0): Promise<{ server: GrpcServer; port: number }> {
  const server = new GrpcServer({ logger: silentLogger(), shutdownGraceMs: 200, transport: 'grpc-js' });
  server.addService('gateway.chat.v1.ChatService', chat().service, {
    ListModels: server.unary('ListModels', async () => ({ groups: [{ id }] })),
  });
  const bound = await server.listen(`127.0.0.1:${port}`);
  closeAfterTest(() => server.close());
  return { server, port: bound };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One raw unary call, for what unary() hides: the ServiceError, the call object's events. */
function rawCall(
  client: ChatServiceClient,
  metadata = new grpc.Metadata(),
  deadlineMs = 5000,
): { call: grpc.ClientUnaryCall; done: Promise<{ error: grpc.ServiceError | null; groups: string[] }> } {
  let call: grpc.ClientUnaryCall | undefined;
  const done = new Promise<{ error: grpc.ServiceError | null; groups: string[] }>((resolve) => {
    call = client.ListModels({}, metadata, { deadline: Date.now() + deadlineMs }, (error, response) =>
      resolve({ error, groups: (response?.groups ?? []).map((group) => group.id) }),
    );
  });
  return { call: call as grpc.ClientUnaryCall, done };
}

/**
 * A TCP relay to `port`: a real peer that can go silent (freeze: bytes on the connections open
 * now are dropped both ways; later connections relay again) or accept without ever answering.
 */
async function relay(port: number, options: { silent?: boolean } = {}) {
  const open = new Set<net.Socket>();
  const frozen = new WeakSet<net.Socket>();
  let silent = options.silent ?? false;
  const server = net.createServer((inbound) => {
    open.add(inbound);
    inbound.on('close', () => open.delete(inbound));
    inbound.on('error', () => undefined);
    if (silent) {
      frozen.add(inbound);
      return;
    }
    const outbound = net.connect(port, '127.0.0.1');
    outbound.on('error', () => inbound.destroy());
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
    inbound.on('data', (data) => {
      if (!frozen.has(inbound)) outbound.write(data);
    });
    outbound.on('data', (data) => {
      if (!frozen.has(inbound)) inbound.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterTest(async () => {
    for (const socket of open) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Connections open now stop passing anything. */
    freeze: () => {
      for (const socket of open) frozen.add(socket);
    },
    setSilent: (value: boolean) => {
      silent = value;
    },
    openConnections: () => open.size,
  };
}

/** A bare http2 server answering every request with what `respond` does: for answers no gRPC server gives. */
async function bareServer(respond: (stream: http2.ServerHttp2Stream) => void): Promise<number> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('error', () => undefined);
    stream.resume();
    stream.on('end', () => respond(stream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => sessions.add(session));
  closeAfterTest(async () => {
    for (const session of sessions) session.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as net.AddressInfo).port;
}

function frame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

describe('the h2 client', () => {
  it('takes the targets it reaches and leaves the others to grpc-js', () => {
    for (const target of [
      '127.0.0.1:50051',
      'localhost:50051',
      'chat.gateway.svc.cluster.local:50051',
      'dns:///localhost:50051',
      'dns:localhost:50051',
      'ipv4:127.0.0.1:1,127.0.0.1:2',
      'ipv6:[::1]:50051',
      '[::1]:50051',
    ]) {
      expect(isH2Target(target), target).toBe(true);
    }
    for (const target of [
      'unix:/tmp/socket',
      'unix:1234',
      'xds:///chat',
      'dns://8.8.8.8/chat:50051',
      'localhost',
      'ipv4:127.0.0.1',
      '::1:50051',
    ]) {
      expect(isH2Target(target), target).toBe(false);
    }
    // createClient picks it for the h2 transport only.
    const h2 = createClient(chat(), '127.0.0.1:1', {}, 'h2');
    const grpcJs = createClient(chat(), '127.0.0.1:1', {}, 'grpc-js');
    expect(h2).not.toBeInstanceOf(grpc.Client);
    expect(grpcJs).toBeInstanceOf(grpc.Client);
    h2.close();
    grpcJs.close();
  });

  it('spreads calls round robin over every address of an ipv4: target', async () => {
    const a = await namedServer('a');
    const b = await namedServer('b');
    const client = h2Client(`ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    const seen = new Set<string>();
    for (let i = 0; i < 50 && seen.size < 2; i += 1) {
      for (const group of (await unary(client, client.ListModels, {})).groups) seen.add(group.id);
    }
    expect(seen).toEqual(new Set(['a', 'b']));
    // Both up: calls alternate.
    const counts: Record<string, number> = { a: 0, b: 0 };
    for (let i = 0; i < 10; i += 1) {
      const [group] = (await unary(client, client.ListModels, {})).groups;
      counts[group?.id ?? '?'] = (counts[group?.id ?? '?'] ?? 0) + 1;
    }
    expect(counts).toEqual({ a: 5, b: 5 });
  });

  it('looks a dns:/// name up and reaches the address that answers', async () => {
    const { port } = await namedServer('local');
    const client = h2Client(`dns:///localhost:${port}`);
    const { call, done } = rawCall(client);
    const { error, groups } = await done;
    expect(error).toBeNull();
    expect(groups).toEqual(['local']);
    expect(call.getPeer()).toBe(`127.0.0.1:${port}`);
  });

  it('reconnects once a restarted server listens on the same port again', async () => {
    const first = await namedServer('first');
    const client = h2Client(`127.0.0.1:${first.port}`);
    expect((await unary(client, client.ListModels, {})).groups[0]?.id).toBe('first');
    await first.server.close();
    const down = await unary(client, client.ListModels, {}, { retries: 0 }).catch((e: unknown) => e);
    expect(isTransportUnavailable((down as GatewayError).cause)).toBe(true);

    await namedServer('second', first.port);
    const restarted = Date.now();
    let answer: string | undefined;
    while (answer === undefined && Date.now() - restarted < 5000) {
      answer = await unary(client, client.ListModels, {}, { retries: 0 }).then(
        (response) => response.groups[0]?.id,
        () => undefined,
      );
      if (answer === undefined) await sleep(25);
    }
    expect(answer).toBe('second');
    expect(Date.now() - restarted).toBeLessThan(2500);
  });

  it('fails UNAVAILABLE at once where nothing listens, and unary() retries until a server is up', async () => {
    const port = await freePort();
    const client = h2Client(`127.0.0.1:${port}`);
    const started = Date.now();
    const { error } = await rawCall(client).done;
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    expect(error?.details).toContain(`No connection established to 127.0.0.1:${port}`);
    expect(isTransportUnavailable(error)).toBe(true);
    // While the address keeps failing, calls fail fast rather than wait.
    const again = Date.now();
    expect((await rawCall(client).done).error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    // (Margins are for a busy machine: waiting would take the 20 s connect timeout.)
    expect(Date.now() - again).toBeLessThan(1000);

    setTimeout(() => void namedServer('late', port), 100);
    const response = await unary(client, client.ListModels, {}, { retries: 6, deadlineMs: 4000 });
    expect(response.groups[0]?.id).toBe('late');
  });

  it('lets calls finish on a connection the server ends (connection age), and sends new calls on a new one', async () => {
    const { port } = await grpcJsServer(
      {
        ListModels: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          const slow = call.metadata.get('slow').length > 0;
          setTimeout(() => callback(null, { groups: [{ id: call.getPeer() }] }), slow ? 700 : 0);
        },
      },
      { 'grpc.max_connection_age_ms': 300, 'grpc.max_connection_age_grace_ms': 5000 },
    );
    const client = h2Client(`127.0.0.1:${port}`);
    const slowMetadata = new grpc.Metadata();
    slowMetadata.set('slow', '1');
    const slow = rawCall(client, slowMetadata);
    await sleep(500); // past the age: the server has sent GOAWAY on the first connection
    const fast = await rawCall(client).done;
    expect(fast.error).toBeNull();
    const { error, groups } = await slow.done;
    expect(error).toBeNull();
    // The server saw them from two client ports: two connections.
    expect(groups[0]).not.toBe(fast.groups[0]);
    for (let i = 0; i < 5; i += 1) expect((await rawCall(client).done).error).toBeNull();
  });

  it('sends the deadline in grpc-timeout', async () => {
    let seen: grpc.Deadline | undefined;
    const { port } = await grpcJsServer({
      ListModels: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        seen = call.getDeadline();
        callback(null, { groups: [] });
      },
    });
    const client = h2Client(`127.0.0.1:${port}`);
    const deadline = Date.now() + 3000;
    await new Promise((resolve) => client.ListModels({}, new grpc.Metadata(), { deadline: new Date(deadline) }, resolve));
    const received = seen instanceof Date ? seen.getTime() : Number(seen);
    // The deadline travels as milliseconds left: the server's is the caller's, give or take the transit.
    expect(Math.abs(received - deadline)).toBeLessThan(500);
  });

  it('carries messages over 64 KiB and of several MiB both ways, and refuses to send one over 64 MiB', async () => {
    const { port } = await grpcJsServer({
      CreateChatCompletion: (call: grpc.ServerUnaryCall<{ body: Buffer }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        // Answers with the body reversed and doubled: the answer depends on every byte received.
        const reversed = Buffer.from(call.request.body).reverse();
        callback(null, { body: Buffer.concat([reversed, reversed]) });
      },
    });
    const client = h2Client(`127.0.0.1:${port}`);
    for (const size of [100 * 1024, 5 * 1024 * 1024]) {
      const body = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4096) body[i] = i % 251;
      const response = await unary(client, client.CreateChatCompletion, { key_id: 'k', model: 'm', body });
      const reversed = Buffer.from(body).reverse();
      expect(response.body.equals(Buffer.concat([reversed, reversed]))).toBe(true);
    }
    const tooLarge = await new Promise<grpc.ServiceError | null>((resolve) =>
      client.CreateChatCompletion({ key_id: 'k', model: 'm', body: Buffer.alloc(64 * 1024 * 1024 + 1) }, (error) => resolve(error)),
    );
    expect(tooLarge).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: `Attempted to send message with a size larger than ${64 * 1024 * 1024}`,
    });
  });

  it('carries binary metadata both ways: request, leading and trailing metadata', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x2c]);
    let received: grpc.MetadataValue[] = [];
    const { port } = await grpcJsServer({
      ListModels: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        received = call.metadata.get('x-blob-bin');
        const leading = new grpc.Metadata();
        leading.set('x-leading-bin', Buffer.from(bytes).reverse());
        leading.set('x-text', 'plain');
        call.sendMetadata(leading);
        const trailing = new grpc.Metadata();
        trailing.set('x-trailing-bin', bytes);
        callback(null, { groups: [] }, trailing);
      },
    });
    const client = h2Client(`127.0.0.1:${port}`);
    const metadata = new grpc.Metadata();
    metadata.set('x-blob-bin', bytes);
    const { call, done } = rawCall(client, metadata);
    const leading = new Promise<grpc.Metadata>((resolve) => call.on('metadata', resolve));
    const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
    expect((await done).error).toBeNull();
    expect(received).toEqual([bytes]);
    expect((await leading).get('x-leading-bin')).toEqual([Buffer.from(bytes).reverse()]);
    expect((await leading).get('x-text')).toEqual(['plain']);
    const { code, metadata: trailers } = await status;
    expect(code).toBe(grpc.status.OK);
    expect(trailers.get('x-trailing-bin')).toEqual([bytes]);
  });

  it('runs 2,000 unary calls at once on one client', async () => {
    const { port } = await namedServer('many');
    const client = h2Client(`127.0.0.1:${port}`);
    const responses = await Promise.all(Array.from({ length: 2000 }, () => unary(client, client.ListModels, {}, { deadlineMs: 10_000 })));
    expect(responses.every((response) => response.groups[0]?.id === 'many')).toBe(true);
  });

  it('holds a server stream of 1,000 messages back while it is read slowly', async () => {
    let written = 0;
    const { port } = await grpcJsServer({
      StreamChatCompletion: async (call: grpc.ServerWritableStream<unknown, unknown>) => {
        for (let i = 0; i < 1000; i += 1) {
          const chunk = Buffer.from(String(i).padEnd(1024, '.'));
          written += 1;
          if (!call.write({ chunks: [chunk] })) await new Promise((resolve) => call.once('drain', resolve));
        }
        call.end();
      },
    });
    const client = h2Client(`127.0.0.1:${port}`);
    const stream = client.StreamChatCompletion({ key_id: 'k', model: 'm', body: Buffer.from('{}') }, { deadline: Date.now() + 10_000 });
    let read = 0;
    let maxLead = 0;
    for await (const message of stream as AsyncIterable<{ chunks: Buffer[] }>) {
      expect(Number(message.chunks[0]?.toString().replace(/\.+$/, ''))).toBe(read);
      read += 1;
      maxLead = Math.max(maxLead, written - read);
      if (read % 100 === 0) await sleep(20);
    }
    expect(read).toBe(1000);
    // 1 KiB messages: the stream's 64 KiB window and a few buffers' worth, never the whole stream.
    expect(maxLead).toBeGreaterThan(16);
    expect(maxLead).toBeLessThan(400);
  });

  it('drops a session whose pings go unanswered: its calls fail UNAVAILABLE, new calls get a new session', async () => {
    const { port } = await grpcJsServer({
      ListModels: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        setTimeout(() => callback(null, { groups: [{ id: 'ok' }] }), call.metadata.get('slow').length > 0 ? 3000 : 0);
      },
    });
    const peer = await relay(port);
    // A second to answer: short enough for the test, long enough that a healthy session's pings
    // are not missed while the machine is busy (the replacement session pings too).
    const client = h2Client(`127.0.0.1:${peer.port}`, { keepaliveTimeMs: 100, keepaliveTimeoutMs: 1000 });
    expect((await rawCall(client).done).error).toBeNull();
    const slowMetadata = new grpc.Metadata();
    slowMetadata.set('slow', '1');
    const hanging = rawCall(client, slowMetadata);
    await sleep(50);
    peer.freeze();
    const started = Date.now();
    const { error } = await hanging.done;
    expect(Date.now() - started).toBeLessThan(2500);
    expect(error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    expect(error?.details).toContain('keepalive ping not acknowledged within 1000 ms');
    expect(isTransportUnavailable(error)).toBe(true);
    expect((await rawCall(client).done).error).toBeNull();
  });

  it('waits for a first connection only until the deadline', async () => {
    const peer = await relay(await freePort(), { silent: true }); // accepts, never answers
    const client = h2Client(`127.0.0.1:${peer.port}`);
    const started = Date.now();
    const { error } = await rawCall(client, new grpc.Metadata(), 300).done;
    expect(error).toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED, details: 'Deadline exceeded' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('on close refuses new calls, lets calls under way finish, then ends its connections', async () => {
    const { port } = await grpcJsServer({
      ListModels: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        setTimeout(() => callback(null, { groups: [{ id: 'done' }] }), 300);
      },
    });
    const peer = await relay(port);
    const client = h2Client(`127.0.0.1:${peer.port}`);
    const inFlight = rawCall(client);
    await sleep(100);
    expect(peer.openConnections()).toBe(1);
    client.close();
    expect(() => client.ListModels({}, () => undefined)).toThrow('Channel has been shut down');
    expect(await inFlight.done).toEqual({ error: null, groups: ['done'] });
    const closed = Date.now();
    while (peer.openConnections() > 0 && Date.now() - closed < 2000) await sleep(10);
    expect(peer.openConnections()).toBe(0);

    // A call still waiting for its first connection fails UNAVAILABLE at close.
    const silent = await relay(await freePort(), { silent: true });
    const waiting = h2Client(`127.0.0.1:${silent.port}`);
    const queued = rawCall(waiting);
    await sleep(50);
    waiting.close();
    expect((await queued.done).error).toMatchObject({ code: grpc.status.UNAVAILABLE, details: 'Channel closed before call started' });
  });

  it('cancels a call: the server sees it, the caller gets CANCELLED', async () => {
    let cancelled: () => void = () => undefined;
    const serverSawCancel = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const { port } = await grpcJsServer({
      ListModels: (call: grpc.ServerUnaryCall<unknown, unknown>) => call.on('cancelled', cancelled),
    });
    const client = h2Client(`127.0.0.1:${port}`);
    const { call, done } = rawCall(client);
    await sleep(100);
    call.cancel();
    expect((await done).error).toMatchObject({ code: grpc.status.CANCELLED, details: 'Cancelled on client' });
    await serverSawCancel;
  });

  it('cancels a server stream its reader stops reading (a for-await loop left early)', async () => {
    let cancelled: () => void = () => undefined;
    const serverSawCancel = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const { port } = await grpcJsServer({
      StreamChatCompletion: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        call.on('cancelled', cancelled);
        const timer = setInterval(() => call.write({ chunks: [Buffer.from('tick')] }), 10);
        call.on('cancelled', () => clearInterval(timer));
      },
    });
    const client = h2Client(`127.0.0.1:${port}`);
    const stream = client.StreamChatCompletion({ key_id: 'k', model: 'm', body: Buffer.from('{}') }, { deadline: Date.now() + 5000 });
    let read = 0;
    for await (const _message of stream as AsyncIterable<unknown>) {
      read += 1;
      if (read === 3) break;
    }
    await serverSawCancel;
  });

  it('maps what a peer that is not a gRPC server answers as grpc-js does', async () => {
    const cases: [(stream: http2.ServerHttp2Stream) => void, grpc.status, string][] = [
      [(s) => s.respond({ ':status': 503 }, { endStream: true }), grpc.status.UNAVAILABLE, 'Received HTTP status code 503'],
      [
        (s) => s.respond({ ':status': 404, 'content-type': 'text/html' }, { endStream: true }),
        grpc.status.UNIMPLEMENTED,
        'Received HTTP status code 404',
      ],
      [
        (s) => {
          s.respond({ ':status': 200, 'content-type': 'text/html' });
          s.end('<html>');
        },
        grpc.status.UNKNOWN,
        'content-type text/html',
      ],
      [
        (s) => {
          s.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
          s.on('wantTrailers', () => s.sendTrailers({ 'grpc-status': '0' }));
          s.end();
        },
        grpc.status.UNIMPLEMENTED,
        'No message received',
      ],
      [
        (s) => {
          s.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
          s.on('wantTrailers', () => s.sendTrailers({ 'grpc-status': '0' }));
          const message = frame(protos().gateway.chat.v1.ChatService.service.ListModels.responseSerialize({ groups: [] }));
          s.end(Buffer.concat([message, message]));
        },
        grpc.status.UNIMPLEMENTED,
        'Too many responses received',
      ],
      [
        (s) => {
          s.respond({ ':status': 200, 'content-type': 'application/grpc' });
          s.end();
        },
        grpc.status.INTERNAL,
        'Call ended without gRPC status',
      ],
      [(s) => s.close(http2.constants.NGHTTP2_REFUSED_STREAM), grpc.status.UNAVAILABLE, 'Stream refused by server'],
      [(s) => s.close(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM), grpc.status.RESOURCE_EXHAUSTED, 'Bandwidth exhausted'],
      [
        (s) =>
          s.respond(
            {
              ':status': 200,
              'content-type': 'application/grpc',
              'grpc-status': '8',
              'grpc-message': 'slow%20down',
              'gateway-error-code': 'x',
            },
            { endStream: true },
          ),
        grpc.status.RESOURCE_EXHAUSTED,
        'slow down',
      ],
    ];
    for (const [respond, code, details] of cases) {
      const port = await bareServer(respond);
      const client = h2Client(`127.0.0.1:${port}`);
      const { error } = await rawCall(client).done;
      expect(error, details).toMatchObject({ code });
      expect(error?.details, details).toContain(details);
    }
  });
});
