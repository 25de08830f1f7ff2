import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { afterEach } from 'vitest';
import { createClient, GrpcServer, inProcessAddress, type CallInfo, type ReadinessCheck } from '../src/index.js';

// A real gRPC server on a loopback port, speaking the chat contract's ListModels with the
// handler a test gives, and a client for it; both closed after each test.

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Closed after the current test, after everything `serve` opened. */
export function closeAfterTest(close: () => Promise<void> | void): void {
  closers.push(close);
}

export async function serve(
  handler: (call: CallInfo) => Promise<unknown>,
  checks: Readonly<Record<string, ReadinessCheck>> = {},
): Promise<{ server: GrpcServer; client: ChatServiceClient; port: number }> {
  const server = new GrpcServer({ logger: silentLogger(), service: 'test', checks, shutdownGraceMs: 500 });
  server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, {
    ListModels: server.unary('ListModels', async (_request: unknown, call) => handler(call)),
  });
  const port = await server.listen('127.0.0.1:0');
  closers.push(() => server.close());
  const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, `127.0.0.1:${port}`);
  closers.push(() => client.close());
  return { server, client, port };
}

/**
 * How a test's client reaches its server: over a loopback port with grpc-js on both sides
 * (services in processes of their own), or in this process (the one-process start).
 */
export type Transport = 'grpc-js' | 'in-process';

export const TRANSPORTS: readonly Transport[] = ['grpc-js', 'in-process'];

/** One message of StreamChatCompletion, as a handler writes it. */
export interface StreamReply {
  chunks: Buffer[];
  usage: null;
}

export interface ChatHandlers {
  listModels?: (call: CallInfo) => Promise<unknown>;
  stream?: (write: (message: StreamReply) => Promise<void>, call: CallInfo) => Promise<void>;
}

let inProcessServers = 0;

/**
 * A GrpcServer with the chat contract's ListModels and StreamChatCompletion as the test gives
 * them, reached over `transport`, and a client for it; both closed after the test.
 */
export async function serveOver(
  transport: Transport,
  handlers: ChatHandlers,
  checks: Readonly<Record<string, ReadinessCheck>> = {},
): Promise<{ server: GrpcServer; client: ChatServiceClient; address: string }> {
  const server = new GrpcServer({ logger: silentLogger(), service: 'test', checks, shutdownGraceMs: 500 });
  const { listModels, stream } = handlers;
  server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, {
    ListModels: listModels && server.unary('ListModels', async (_request: unknown, call) => listModels(call)),
    StreamChatCompletion:
      stream && server.serverStream('StreamChatCompletion', async (_request: unknown, write, call) => stream(write, call)),
  });
  let address: string;
  if (transport === 'grpc-js') {
    address = `127.0.0.1:${await server.listen('127.0.0.1:0')}`;
  } else {
    inProcessServers += 1;
    address = inProcessAddress(`test-${process.pid}-${inProcessServers}`);
    server.listenInProcess(address);
  }
  closers.push(() => server.close());
  const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, address);
  closers.push(() => client.close());
  return { server, client, address };
}
