// Original file: proto/gateway/chat/v1/chat.proto


export interface CreateChatCompletionRequest {
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
   * Chosen by the edge ("chatcmpl-" and 8-64 letters or digits): the response's id and the spend
   * event's idempotency id, so a call the edge sends again after a dropped connection is billed
   * once. Empty: the chat service chooses one.
   */
  'completion_id'?: (string);
}

export interface CreateChatCompletionRequest__Output {
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
   * Chosen by the edge ("chatcmpl-" and 8-64 letters or digits): the response's id and the spend
   * event's idempotency id, so a call the edge sends again after a dropped connection is billed
   * once. Empty: the chat service chooses one.
   */
  'completion_id': (string);
}
