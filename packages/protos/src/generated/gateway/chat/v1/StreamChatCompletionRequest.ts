// Original file: proto/gateway/chat/v1/chat.proto


export interface StreamChatCompletionRequest {
  /**
   * The authenticated caller.
   */
  'key_id'?: (string);
  /**
   * The `model` string exactly as the caller sent it (a group id or alias); echoed in the response.
   */
  'model'?: (string);
  /**
   * The caller's request body as JSON, passed through untouched; the chat service validates it.
   */
  'body'?: (Buffer | Uint8Array | string);
  /**
   * The group id `model` resolved to at the edge (which checked the key may call it).
   */
  'group'?: (string);
  /**
   * As in CreateChatCompletionRequest.
   */
  'completion_id'?: (string);
}

export interface StreamChatCompletionRequest__Output {
  /**
   * The authenticated caller.
   */
  'key_id': (string);
  /**
   * The `model` string exactly as the caller sent it (a group id or alias); echoed in the response.
   */
  'model': (string);
  /**
   * The caller's request body as JSON, passed through untouched; the chat service validates it.
   */
  'body': (Buffer);
  /**
   * The group id `model` resolved to at the edge (which checked the key may call it).
   */
  'group': (string);
  /**
   * As in CreateChatCompletionRequest.
   */
  'completion_id': (string);
}
