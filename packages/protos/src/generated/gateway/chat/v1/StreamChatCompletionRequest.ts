// Original file: proto/gateway/chat/v1/chat.proto


export interface StreamChatCompletionRequest {
  'key_id'?: (string);
  'model'?: (string);
  'body'?: (Buffer | Uint8Array | string);
}

export interface StreamChatCompletionRequest__Output {
  'key_id': (string);
  'model': (string);
  'body': (Buffer);
}
