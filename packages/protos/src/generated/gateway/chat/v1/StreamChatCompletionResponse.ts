// Original file: proto/gateway/chat/v1/chat.proto


export interface StreamChatCompletionResponse {
  /**
   * OpenAI-shaped chunks as JSON, each relayed as one SSE `data:` event. Chunks that arrived from
   * the upstream together travel together; none is held back waiting for another.
   */
  'chunks'?: (Buffer | Uint8Array | string)[];
}

export interface StreamChatCompletionResponse__Output {
  /**
   * OpenAI-shaped chunks as JSON, each relayed as one SSE `data:` event. Chunks that arrived from
   * the upstream together travel together; none is held back waiting for another.
   */
  'chunks': (Buffer)[];
}
