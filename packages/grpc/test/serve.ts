import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { afterEach } from 'vitest';
import { createClient, GrpcServer, type CallInfo, type ReadinessCheck } from '../src/index.js';

// A real grpc-js server on a loopback port, speaking the chat contract's ListModels with the
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
