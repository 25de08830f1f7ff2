// Original file: proto/gateway/accounting/v1/accounting.proto


export interface GetDailySpendRequest {
  'key_id'?: (string);
  'team_id'?: (string);
  'group'?: (string);
  /**
   * UTC days, "YYYY-MM-DD", both inclusive.
   */
  'from_day'?: (string);
  'to_day'?: (string);
}

export interface GetDailySpendRequest__Output {
  'key_id': (string);
  'team_id': (string);
  'group': (string);
  /**
   * UTC days, "YYYY-MM-DD", both inclusive.
   */
  'from_day': (string);
  'to_day': (string);
}
