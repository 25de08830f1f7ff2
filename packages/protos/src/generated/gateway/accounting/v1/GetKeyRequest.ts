// Original file: proto/gateway/accounting/v1/accounting.proto


export interface GetKeyRequest {
  'key_id'?: (string);
}

export interface GetKeyRequest__Output {
  'key_id': (string);
}
