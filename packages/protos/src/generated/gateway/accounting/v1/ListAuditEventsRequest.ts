// Original file: proto/gateway/accounting/v1/accounting.proto


export interface ListAuditEventsRequest {
  /**
   * Empty: every target.
   */
  'target_id'?: (string);
  'page_size'?: (number);
  'page_token'?: (string);
}

export interface ListAuditEventsRequest__Output {
  /**
   * Empty: every target.
   */
  'target_id': (string);
  'page_size': (number);
  'page_token': (string);
}
