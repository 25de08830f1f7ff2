import * as grpc from '@grpc/grpc-js';
import { GatewayError } from '@gateway/errors';
import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { describe, expect, it } from 'vitest';
import {
  callMetadata,
  checkHealth,
  createClient,
  createHealthClient,
  fromServiceError,
  GrpcServer,
  inProcessAddress,
  isServiceError,
  isTransportUnavailable,
  unary,
  upstreamMsOf,
} from '../src/index.js';
import { closeAfterTest, serveOver, TRANSPORTS, type StreamReply } from './serve.js';

// The same behaviours over both transports: grpc-js on a loopback port (services in processes of
// their own) and the in-process transport (the one-process start). What differs is said where it does.

const STREAM_REQUEST = { key_id: 'k', model: 'm', group: 'g', body: Buffer.from('{}'), completion_id: '' };

type Stream = ReturnType<ChatServiceClient['StreamChatCompletion']>;

function openStream(client: ChatServiceClient, context: { requestId?: string; deadlineMs?: number } = {}): Stream {
  return client.StreamChatCompletion(STREAM_REQUEST, callMetadata(context), { deadline: Date.now() + (context.deadlineMs ?? 5000) });
}

/** Everything a stream delivers: its messages' chunks, then how it ended. */
async function readAll(stream: Stream): Promise<{ chunks: string[]; error: grpc.ServiceError | undefined }> {
  const chunks: string[] = [];
  return new Promise((resolve) => {
    stream.on('data', (message: StreamReply) => {
      for (const chunk of message.chunks) chunks.push(chunk.toString());
    });
    stream.on('error', (error: grpc.ServiceError) => resolve({ chunks, error }));
    stream.on('end', () => resolve({ chunks, error: undefined }));
  });
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(TRANSPORTS)('calls over %s', (transport) => {
  it('carry the request id and answer typed responses, read as the wire reads them (defaults, enums, int64)', async () => {
    let seen: string | undefined;
    const { client } = await serveOver(transport, {
      listModels: async (call) => {
        seen = call.requestId;
        // A field the contract does not have and fields left unset: the answer is what the bytes say.
        return {
          groups: [
            { id: 'g', aliases: ['a'], created_at_ms: 2 ** 40, not_in_the_contract: true },
            { id: 'h', mode: 'MODEL_GROUP_MODE_VIDEO' },
          ],
        };
      },
    });
    const response = await unary(client, client.ListModels, {}, { requestId: 'req-123' });
    expect(seen).toBe('req-123');
    expect(response.groups).toEqual([
      { id: 'g', aliases: ['a'], mode: 'MODEL_GROUP_MODE_UNSPECIFIED', max_input_tokens: 0, max_output_tokens: 0, created_at_ms: 2 ** 40 },
      { id: 'h', aliases: [], mode: 'MODEL_GROUP_MODE_VIDEO', max_input_tokens: 0, max_output_tokens: 0, created_at_ms: 0 },
    ]);
  });

  it('bring a GatewayError across with its code, message, param and retry-after; hide an unexpected one', async () => {
    let failure: Error = new GatewayError('upstream_rate_limited', { param: 'model', retryAfterSeconds: 7, message: 'slow down' });
    const { client } = await serveOver(transport, {
      listModels: async () => {
        throw failure;
      },
    });
    const error = await unary(client, client.ListModels, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'upstream_rate_limited', message: 'slow down', param: 'model', retryAfterSeconds: 7 });
    const cause = (error as GatewayError).cause;
    expect(isServiceError(cause)).toBe(true);
    expect(cause).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED, details: 'slow down' });
    expect(isTransportUnavailable(cause)).toBe(false);

    failure = new Error('secret internals');
    const hidden = await unary(client, client.ListModels, {}).catch((e: unknown) => e);
    expect(hidden).toMatchObject({ code: 'internal_error', message: 'Internal error.' });
    expect(JSON.stringify(hidden)).not.toContain('secret');
  });

  it('answer UNIMPLEMENTED for a contract method without a handler', async () => {
    const { client } = await serveOver(transport, { listModels: async () => ({ groups: [] }) });
    const error = await unary(client, client.CreateChatCompletion, { key_id: 'k', model: 'm', body: Buffer.from('{}') }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'not_implemented' });
    expect((error as GatewayError).cause).toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it('send x-upstream-ms back as leading metadata, before the answer and before the first message', async () => {
    const { client } = await serveOver(transport, {
      listModels: async (call) => {
        call.upstreamMs = 12.5;
        return { groups: [] };
      },
      stream: async (write, call) => {
        call.upstreamMs = 3.25;
        await write({ chunks: [Buffer.from('one')], usage: null });
      },
    });
    let unaryUpstreamMs: number | undefined;
    await unary(client, client.ListModels, {}, { onResponseMetadata: (metadata) => (unaryUpstreamMs = upstreamMsOf(metadata)) });
    expect(unaryUpstreamMs).toBe(12.5);

    const stream = openStream(client, { requestId: 'req-9' });
    const order: string[] = [];
    stream.on('metadata', (metadata: grpc.Metadata) => order.push(`metadata ${upstreamMsOf(metadata)}`));
    stream.on('data', (message: StreamReply) => order.push(`data ${message.chunks.join()}`));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(order).toEqual(['metadata 3.25', 'data one']);
  });

  it('fail a call past its deadline with DEADLINE_EXCEEDED, and abort its handler', async () => {
    let sawAbort: () => void = () => undefined;
    const handlerAborted = new Promise<void>((resolve) => {
      sawAbort = resolve;
    });
    const { client } = await serveOver(transport, {
      listModels: async (call) => {
        await aborted(call.signal);
        sawAbort();
        return { groups: [] };
      },
    });
    const started = Date.now();
    const error = await unary(client, client.ListModels, {}, { deadlineMs: 100 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'service_unavailable' });
    expect((error as GatewayError).cause).toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
    await handlerAborted;
  });

  it('tell the handler when the caller cancels, and the caller gets CANCELLED', async () => {
    let sawCancel: () => void = () => undefined;
    const handlerSawCancel = new Promise<void>((resolve) => {
      sawCancel = resolve;
    });
    const { client } = await serveOver(transport, {
      stream: async (write, call) => {
        await write({ chunks: [Buffer.from('first')], usage: null });
        await aborted(call.signal);
        sawCancel();
        throw new GatewayError('service_unavailable', { message: 'the caller went away' });
      },
    });
    const stream = openStream(client);
    const ended = new Promise<unknown>((resolve) => stream.on('error', resolve));
    stream.once('data', () => stream.cancel());
    await handlerSawCancel;
    expect(await ended).toMatchObject({ code: grpc.status.CANCELLED });
  });

  it('hold a writer back while its reader is paused, then deliver everything in order', async () => {
    const total = 200;
    let written = 0;
    const { client } = await serveOver(transport, {
      stream: async (write) => {
        for (let i = 0; i < total; i += 1) {
          // 64 KiB a message: over gRPC the HTTP/2 windows fill too, not only the reader's buffer.
          await write({ chunks: [Buffer.from(`${i}`.padEnd(64 * 1024, '.'))], usage: null });
          written += 1;
        }
      },
    });
    const stream = openStream(client);
    const first = await new Promise<StreamReply>((resolve) => stream.once('data', resolve));
    stream.pause();
    await sleep(300);
    const whilePaused = written;
    await sleep(300);
    expect(written).toBe(whilePaused);
    expect(written).toBeLessThan(total);
    const rest = readAll(stream);
    stream.resume();
    const { chunks, error } = await rest;
    expect(error).toBeUndefined();
    const indexes = [...first.chunks.map(String), ...chunks].map((chunk) => Number(chunk.replace(/\.+$/, '')));
    expect(indexes).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(written).toBe(total);
  });

  it('end a write waiting for room when its caller cancels, so the handler unwinds', async () => {
    let unwound: (error: unknown) => void = () => undefined;
    const handlerUnwound = new Promise<unknown>((resolve) => {
      unwound = resolve;
    });
    const { client } = await serveOver(transport, {
      stream: async (write) => {
        try {
          for (let i = 0; i < 1000; i += 1) await write({ chunks: [Buffer.from(`${i}`.padEnd(64 * 1024, '.'))], usage: null });
        } catch (error) {
          unwound(error);
          throw error;
        }
      },
    });
    const stream = openStream(client);
    stream.on('error', () => undefined);
    await new Promise((resolve) => stream.once('data', resolve));
    stream.pause();
    await sleep(300);
    stream.cancel();
    expect(await handlerUnwound).toBeInstanceOf(GatewayError);
  });

  it('end a stream that fails after messages with those messages, then the error', async () => {
    const { client } = await serveOver(transport, {
      stream: async (write) => {
        await write({ chunks: [Buffer.from('a'), Buffer.from('b')], usage: null });
        await write({ chunks: [Buffer.from('c')], usage: null });
        throw new GatewayError('upstream_error', { message: 'the upstream broke off' });
      },
    });
    const { chunks, error } = await readAll(openStream(client));
    expect(chunks).toEqual(['a', 'b', 'c']);
    expect(isServiceError(error)).toBe(true);
    expect(fromServiceError(error as grpc.ServiceError)).toMatchObject({ code: 'upstream_error', message: 'the upstream broke off' });
  });

  it('let calls in flight finish on close, refuse new ones, then fail every call UNAVAILABLE', async () => {
    let release: () => void = () => undefined;
    const { server, client } = await serveOver(transport, {
      listModels: async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { groups: [{ id: 'slow' }] };
      },
    });
    const inFlight = unary(client, client.ListModels, {}, { deadlineMs: 3000 });
    await sleep(100);
    const closing = server.close();
    const refused = await unary(client, client.ListModels, {}, { retries: 0 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'service_unavailable' });
    expect(isTransportUnavailable((refused as GatewayError).cause)).toBe(true);
    release();
    expect((await inFlight).groups.map((group) => group.id)).toEqual(['slow']);
    await closing;
    const closed = await unary(client, client.ListModels, {}, { retries: 0 }).catch((e: unknown) => e);
    expect(closed).toMatchObject({ code: 'service_unavailable' });
    expect(isTransportUnavailable((closed as GatewayError).cause)).toBe(true);
  });

  it('serve grpc.health.v1 from the dependency probes, NOT_SERVING while draining, unreachable once closed', async () => {
    let storeUp = true;
    let release: () => void = () => undefined;
    const { server, address } = await serveOver(
      transport,
      {
        listModels: async () => {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return { groups: [] };
        },
      },
      {
        store: async () => {
          if (!storeUp) throw new Error('down');
        },
      },
    );
    const health = createHealthClient(address);
    closeAfterTest(() => health.close());
    expect(await checkHealth(health)).toBe('SERVING');
    expect(await checkHealth(health, 'gateway.chat.v1.ChatService')).toBe('SERVING');
    expect(await checkHealth(health, 'no.such.Service')).toBe('UNREACHABLE');
    storeUp = false;
    expect(await checkHealth(health)).toBe('NOT_SERVING');
    expect(await checkHealth(health, 'liveness')).toBe('SERVING');
    storeUp = true;

    // A call in flight keeps the server draining.
    const chat = createClient(protos().gateway.chat.v1.ChatService, address);
    closeAfterTest(() => chat.close());
    const inFlight = unary(chat, chat.ListModels, {});
    await sleep(100);
    const closing = server.close();
    const whileDraining = await checkHealth(health);
    // In process the health service still answers while the server drains; over gRPC the
    // draining server takes no new calls at all, so a probe finds it unreachable.
    expect(whileDraining).toBe(transport === 'in-process' ? 'NOT_SERVING' : 'UNREACHABLE');
    release();
    await inFlight;
    await closing;
    expect(await checkHealth(health)).toBe('UNREACHABLE');
  });
});

describe('the in-process transport', () => {
  it('answers UNAVAILABLE, as a refused connection, where nothing is published', async () => {
    const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, inProcessAddress('nothing-here'));
    closeAfterTest(() => client.close());
    const error = await unary(client, client.ListModels, {}, { retries: 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'service_unavailable' });
    expect(isTransportUnavailable((error as GatewayError).cause)).toBe(true);
  });

  it('gives an address to one server at a time, and frees it on close', async () => {
    const address = inProcessAddress(`shared-${process.pid}`);
    const first = new GrpcServer({ logger: silentLogger(), shutdownGraceMs: 100 });
    first.listenInProcess(address);
    const second = new GrpcServer({ logger: silentLogger(), shutdownGraceMs: 100 });
    expect(() => second.listenInProcess(address)).toThrow(expect.objectContaining({ code: 'EADDRINUSE' }));
    await first.close();
    second.listenInProcess(address);
    closeAfterTest(() => second.close());
    const health = createHealthClient(address);
    closeAfterTest(() => health.close());
    expect(await checkHealth(health)).toBe('SERVING');
  });

  it('cuts calls still running after the shutdown grace: the handler is aborted, the caller gets UNAVAILABLE', async () => {
    let sawAbort: () => void = () => undefined;
    const handlerAborted = new Promise<void>((resolve) => {
      sawAbort = resolve;
    });
    const { server, client } = await serveOver('in-process', {
      listModels: async (call) => {
        await aborted(call.signal);
        sawAbort();
        return { groups: [] };
      },
    });
    const call = unary(client, client.ListModels, {}, { retries: 0, deadlineMs: 5000 }).catch((e: unknown) => e);
    await sleep(50);
    await server.close(); // grace 500 ms
    await handlerAborted;
    const error = await call;
    expect(isTransportUnavailable((error as GatewayError).cause)).toBe(true);
  });

  it('refuses calls on a closed client, as a closed grpc-js channel does', async () => {
    const { client } = await serveOver('in-process', { listModels: async () => ({ groups: [] }) });
    client.close();
    await expect(unary(client, client.ListModels, {})).rejects.toThrow('Channel has been shut down');
  });
});
