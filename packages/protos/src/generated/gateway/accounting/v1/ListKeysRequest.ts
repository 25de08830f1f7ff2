// Original file: proto/gateway/accounting/v1/accounting.proto


export interface ListKeysRequest {
  /**
   * At most this many keys; 0 means the server's default (100), capped at 1000.
   */
  'page_size'?: (number);
  /**
   * From a previous response's next_page_token.
   */
  'page_token'?: (string);
}

export interface ListKeysRequest__Output {
  /**
   * At most this many keys; 0 means the server's default (100), capped at 1000.
   */
  'page_size': (number);
  /**
   * From a previous response's next_page_token.
   */
  'page_token': (string);
}
