// Original file: proto/gateway/chat/v1/chat.proto


export interface StreamChatCompletionResponse {
  /**
   * One OpenAI-shaped chunk as JSON, relayed as one SSE `data:` event.
   */
  'chunk'?: (Buffer | Uint8Array | string);
}

export interface StreamChatCompletionResponse__Output {
  /**
   * One OpenAI-shaped chunk as JSON, relayed as one SSE `data:` event.
   */
  'chunk': (Buffer);
}
