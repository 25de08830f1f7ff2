// Original file: proto/gateway/accounting/v1/accounting.proto


export interface GetTeamRequest {
  'team_id'?: (string);
}

export interface GetTeamRequest__Output {
  'team_id': (string);
}
