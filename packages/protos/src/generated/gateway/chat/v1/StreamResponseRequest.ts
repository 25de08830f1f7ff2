// Original file: proto/gateway/chat/v1/chat.proto


export interface StreamResponseRequest {
  'key_id'?: (string);
  'model'?: (string);
  'body'?: (Buffer | Uint8Array | string);
  'group'?: (string);
  'response_id'?: (string);
  'storage_off'?: (boolean);
}

export interface StreamResponseRequest__Output {
  'key_id': (string);
  'model': (string);
  'body': (Buffer);
  'group': (string);
  'response_id': (string);
  'storage_off': (boolean);
}
