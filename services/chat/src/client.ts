import { createClient, unary, type CallContext } from '@gateway/grpc';
import { protos, type ChatServiceClient, type ModelGroup__Output } from '@gateway/protos';

/** The chat service as the edge sees it. */
export class ChatClient {
  readonly #client: ChatServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.chat.v1.ChatService, address);
  }

  async listModels(context?: CallContext): Promise<ModelGroup__Output[]> {
    return (await unary(this.#client, this.#client.ListModels, {}, context)).groups;
  }

  close(): void {
    this.#client.close();
  }
}
