// Original file: proto/gateway/accounting/v1/accounting.proto


export interface DeleteStoredResponseRequest {
  'key_id'?: (string);
  'response_id'?: (string);
}

export interface DeleteStoredResponseRequest__Output {
  'key_id': (string);
  'response_id': (string);
}
