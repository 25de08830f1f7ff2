import { servedGroups } from '@gateway/config';
import { GrpcServer } from '@gateway/grpc';
import { protos, type VideoServiceHandlers } from '@gateway/protos';
import { modelGroupMessage, type ServiceDeps } from '@gateway/runtime';
import type { DocumentStore } from '@gateway/store';

export interface VideoDeps extends ServiceDeps {
  /** Holds the task records. */
  store: DocumentStore;
}

export interface VideoApp {
  server: GrpcServer;
  stop(): Promise<void>;
}

/**
 * Wires the video service. It answers which video groups it serves; jobs are handled by the
 * handlers this contract sketches (CreateVideo, GetVideo, ResolveVideoContent), which grpc-js
 * answers with UNIMPLEMENTED until they are registered here.
 */
export async function buildVideoApp(deps: VideoDeps): Promise<VideoApp> {
  const { config, bus, store, logger, env } = deps;
  const server = new GrpcServer({ logger, checks: { store: () => store.ping(), bus: () => bus.ping() } });
  const groups = servedGroups(config, 'video', env).map(modelGroupMessage);
  const handlers: Partial<VideoServiceHandlers> = {
    ListModels: server.unary('ListModels', async () => ({ groups })),
  };
  server.addService('gateway.video.v1.VideoService', protos().gateway.video.v1.VideoService.service, handlers);
  return { server, stop: async () => {} };
}
