import { silentLogger } from '@gateway/logging';
import { protos, type ChatServiceClient } from '@gateway/protos';
import { describe, expect, it } from 'vitest';
import { createClient, GrpcServer, unary } from '../src/index.js';
import { closeAfterTest, serveOver } from './serve.js';

// How a GrpcServer binds on grpc-js: a taken port fails as Node's own listen does (the CLI names
// the port), and the hosts operators write all work.

function chatServer(): GrpcServer {
  const server = new GrpcServer({ logger: silentLogger(), shutdownGraceMs: 100 });
  server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, {
    ListModels: server.unary('ListModels', async () => ({ groups: [] })),
  });
  closeAfterTest(() => server.close());
  return server;
}

describe('a GrpcServer on grpc-js', () => {
  it('fails to listen on a port already taken as Node does (EADDRINUSE with the port)', async () => {
    const { address } = await serveOver('grpc-js', { listModels: async () => ({ groups: [] }) });
    const port = Number(address.slice(address.lastIndexOf(':') + 1));
    const error = await chatServer()
      .listen(address)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: 'EADDRINUSE', port, message: `listen EADDRINUSE: address already in use ${address}` });
  });

  it('listens on 0.0.0.0, [::] and localhost too', async () => {
    for (const host of ['0.0.0.0', '[::]', 'localhost']) {
      const port = await chatServer().listen(`${host}:0`);
      expect(port).toBeGreaterThan(0);
      const client: ChatServiceClient = createClient(protos().gateway.chat.v1.ChatService, `127.0.0.1:${port}`);
      closeAfterTest(() => client.close());
      expect(await unary(client, client.ListModels, {})).toEqual({ groups: [] });
    }
  });
});
