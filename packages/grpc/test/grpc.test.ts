import * as grpc from '@grpc/grpc-js';
import { GatewayError } from '@gateway/errors';
import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { describe, expect, it } from 'vitest';
import { checkHealth, createClient, createHealthClient, GrpcServer, unary } from '../src/index.js';
import { closeAfterTest, serve } from './serve.js';

// A real grpc-js server on a loopback port, speaking the chat contract's ListModels.

describe('gRPC conventions', () => {
  it('carries the request id in metadata and returns typed responses', async () => {
    let seen: string | undefined;
    const { client } = await serve(async (call) => {
      seen = call.requestId;
      return {
        groups: [
          { id: 'g', aliases: ['a'], mode: 'MODEL_GROUP_MODE_CHAT', max_input_tokens: 10, max_output_tokens: 5, created_at_ms: 1000 },
        ],
      };
    });
    const response = await unary(client, client.ListModels, {}, { requestId: 'req-123' });
    expect(seen).toBe('req-123');
    expect(response.groups[0]).toEqual({
      id: 'g',
      aliases: ['a'],
      mode: 'MODEL_GROUP_MODE_CHAT',
      max_input_tokens: 10,
      max_output_tokens: 5,
      created_at_ms: 1000,
    });
  });

  it('brings a GatewayError across the hop with its code, message, param and retry-after', async () => {
    const { client } = await serve(async () => {
      throw new GatewayError('upstream_rate_limited', { param: 'model', retryAfterSeconds: 7, message: 'slow down' });
    });
    const error = await unary(client, client.ListModels, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'upstream_rate_limited', message: 'slow down', param: 'model', retryAfterSeconds: 7 });
  });

  it('turns an unexpected failure into internal_error without its details', async () => {
    const { client } = await serve(async () => {
      throw new Error('secret internals');
    });
    const error = await unary(client, client.ListModels, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'internal_error', message: 'Internal error.' });
  });

  it('answers UNIMPLEMENTED for a contract method without a handler', async () => {
    const { client } = await serve(async () => ({ groups: [] }));
    const error = await unary(client, client.CreateChatCompletion, { key_id: 'k', model: 'm', body: Buffer.from('{}') }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'not_implemented' });
  });

  it('enforces the deadline', async () => {
    const { client } = await serve(() => new Promise((resolve) => setTimeout(() => resolve({ groups: [] }), 1000)));
    const started = Date.now();
    const error = await unary(client, client.ListModels, {}, { deadlineMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).cause).toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('retries only UNAVAILABLE, so a server that comes up in time is reached', async () => {
    // Reserve a port, free it, and start the server there shortly after the first attempt fails.
    const probe = new GrpcServer({ logger: silentLogger() });
    const port = await probe.listen('127.0.0.1:0');
    await probe.close();
    const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, `127.0.0.1:${port}`);
    closeAfterTest(() => client.close());
    const failing = await unary(client, client.ListModels, {}, { retries: 0, deadlineMs: 1000 }).catch((e: unknown) => e);
    expect(failing).toMatchObject({ code: 'service_unavailable' });

    let calls = 0;
    const server = new GrpcServer({ logger: silentLogger(), shutdownGraceMs: 100 });
    server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, {
      ListModels: server.unary('ListModels', async () => {
        calls += 1;
        throw new GatewayError('invalid_request');
      }),
    });
    await server.listen(`127.0.0.1:${port}`);
    closeAfterTest(() => server.close());
    const rejected = await unary(client, client.ListModels, {}, { retries: 5, deadlineMs: 3000 }).catch((e: unknown) => e);
    expect(rejected).toMatchObject({ code: 'invalid_request' });
    expect(calls).toBe(1);
  });

  it('serves grpc.health.v1 from its dependency probes and turns NOT_SERVING on close', async () => {
    let storeUp = true;
    const { server, port } = await serve(async () => ({ groups: [] }), {
      store: async () => {
        if (!storeUp) throw new Error('down');
      },
    });
    const health = createHealthClient(`127.0.0.1:${port}`);
    closeAfterTest(() => health.close());
    expect(await checkHealth(health)).toBe('SERVING');
    expect(await checkHealth(health, 'gateway.chat.v1.ChatService')).toBe('SERVING');
    expect(await checkHealth(health, 'no.such.Service')).toBe('UNREACHABLE');
    storeUp = false;
    expect(await checkHealth(health)).toBe('NOT_SERVING');
    expect(await server.failingChecks()).toEqual(['store']);
    // Liveness ignores dependencies: a store outage must not get the process restarted.
    expect(await checkHealth(health, 'liveness')).toBe('SERVING');
    storeUp = true;
    const closing = server.close();
    expect(await server.failingChecks()).toEqual(['shutting_down']);
    await closing;
    expect(await checkHealth(health)).toBe('UNREACHABLE');
  });
});
