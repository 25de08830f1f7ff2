// Original file: proto/gateway/chat/v1/chat.proto


export interface CreateChatCompletionRequest {
  /**
   * The authenticated caller.
   */
  'key_id'?: (string);
  /**
   * The `model` string exactly as the caller sent it (a group id or alias).
   */
  'model'?: (string);
  /**
   * The caller's request body as validated JSON; kept as bytes so it is parsed once here.
   */
  'body'?: (Buffer | Uint8Array | string);
}

export interface CreateChatCompletionRequest__Output {
  /**
   * The authenticated caller.
   */
  'key_id': (string);
  /**
   * The `model` string exactly as the caller sent it (a group id or alias).
   */
  'model': (string);
  /**
   * The caller's request body as validated JSON; kept as bytes so it is parsed once here.
   */
  'body': (Buffer);
}
