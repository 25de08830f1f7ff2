// Original file: proto/gateway/accounting/v1/accounting.proto


export interface RevokeKeyRequest {
  'key_id'?: (string);
}

export interface RevokeKeyRequest__Output {
  'key_id': (string);
}
