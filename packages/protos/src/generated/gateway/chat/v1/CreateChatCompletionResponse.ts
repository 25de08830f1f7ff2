// Original file: proto/gateway/chat/v1/chat.proto


export interface CreateChatCompletionResponse {
  /**
   * The OpenAI-shaped response body as JSON.
   */
  'body'?: (Buffer | Uint8Array | string);
}

export interface CreateChatCompletionResponse__Output {
  /**
   * The OpenAI-shaped response body as JSON.
   */
  'body': (Buffer);
}
