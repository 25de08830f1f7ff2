// Original file: proto/gateway/accounting/v1/accounting.proto


export interface GetUsageRequest {
  'key_id'?: (string);
}

export interface GetUsageRequest__Output {
  'key_id': (string);
}
