import { servedGroups } from '@gateway/config';
import { GrpcServer } from '@gateway/grpc';
import { protos, type ChatServiceHandlers } from '@gateway/protos';
import { modelGroupMessage, type ServiceDeps } from '@gateway/runtime';

export type ChatDeps = ServiceDeps;

export interface ChatApp {
  server: GrpcServer;
  stop(): Promise<void>;
}

/**
 * Wires the chat service. It answers which chat groups it serves; completions are routed by the
 * handlers this contract sketches (CreateChatCompletion, StreamChatCompletion), which grpc-js
 * answers with UNIMPLEMENTED until they are registered here.
 */
export async function buildChatApp(deps: ChatDeps): Promise<ChatApp> {
  const { config, bus, logger, env } = deps;
  const server = new GrpcServer({ logger, checks: { bus: () => bus.ping() } });
  // Credentials are read once at start: a served group stays served for the process's life.
  const groups = servedGroups(config, 'chat', env).map(modelGroupMessage);
  const handlers: Partial<ChatServiceHandlers> = {
    ListModels: server.unary('ListModels', async () => ({ groups })),
  };
  server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, handlers);
  return { server, stop: async () => {} };
}
