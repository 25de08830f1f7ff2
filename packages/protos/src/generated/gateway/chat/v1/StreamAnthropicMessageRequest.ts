// Original file: proto/gateway/chat/v1/chat.proto


export interface StreamAnthropicMessageRequest {
  'key_id'?: (string);
  'model'?: (string);
  'body'?: (Buffer | Uint8Array | string);
  'group'?: (string);
  'message_id'?: (string);
}

export interface StreamAnthropicMessageRequest__Output {
  'key_id': (string);
  'model': (string);
  'body': (Buffer);
  'group': (string);
  'message_id': (string);
}
