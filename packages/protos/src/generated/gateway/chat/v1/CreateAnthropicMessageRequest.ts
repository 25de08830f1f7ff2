// Original file: proto/gateway/chat/v1/chat.proto


export interface CreateAnthropicMessageRequest {
  'key_id'?: (string);
  /**
   * As the caller sent it; echoed in the message.
   */
  'model'?: (string);
  /**
   * The Messages request body as the caller sent it (JSON).
   */
  'body'?: (Buffer | Uint8Array | string);
  'group'?: (string);
  /**
   * "msg_…", chosen by the edge so a repeated call is billed once.
   */
  'message_id'?: (string);
}

export interface CreateAnthropicMessageRequest__Output {
  'key_id': (string);
  /**
   * As the caller sent it; echoed in the message.
   */
  'model': (string);
  /**
   * The Messages request body as the caller sent it (JSON).
   */
  'body': (Buffer);
  'group': (string);
  /**
   * "msg_…", chosen by the edge so a repeated call is billed once.
   */
  'message_id': (string);
}
