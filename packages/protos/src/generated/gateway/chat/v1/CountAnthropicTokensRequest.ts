// Original file: proto/gateway/chat/v1/chat.proto


export interface CountAnthropicTokensRequest {
  'group'?: (string);
  /**
   * The count_tokens request body as the caller sent it (JSON).
   */
  'body'?: (Buffer | Uint8Array | string);
}

export interface CountAnthropicTokensRequest__Output {
  'group': (string);
  /**
   * The count_tokens request body as the caller sent it (JSON).
   */
  'body': (Buffer);
}
