// Original file: proto/gateway/accounting/v1/accounting.proto


export interface GetStoredResponseRequest {
  'key_id'?: (string);
  'response_id'?: (string);
}

export interface GetStoredResponseRequest__Output {
  'key_id': (string);
  'response_id': (string);
}
