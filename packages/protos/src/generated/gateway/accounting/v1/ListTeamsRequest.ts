// Original file: proto/gateway/accounting/v1/accounting.proto


export interface ListTeamsRequest {
  'page_size'?: (number);
  'page_token'?: (string);
}

export interface ListTeamsRequest__Output {
  'page_size': (number);
  'page_token': (string);
}
