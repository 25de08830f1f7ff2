import { createClient, unary, type CallContext } from '@gateway/grpc';
import { protos, type ModelGroup__Output, type VideoServiceClient } from '@gateway/protos';

/** The video service as the edge sees it. */
export class VideoClient {
  readonly #client: VideoServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.video.v1.VideoService, address);
  }

  async listModels(context?: CallContext): Promise<ModelGroup__Output[]> {
    return (await unary(this.#client, this.#client.ListModels, {}, context)).groups;
  }

  close(): void {
    this.#client.close();
  }
}
