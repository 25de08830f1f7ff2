// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Team as _gateway_accounting_v1_Team, Team__Output as _gateway_accounting_v1_Team__Output } from '../../../gateway/accounting/v1/Team.js';

export interface ListTeamsResponse {
  'teams'?: (_gateway_accounting_v1_Team)[];
  'next_page_token'?: (string);
}

export interface ListTeamsResponse__Output {
  'teams': (_gateway_accounting_v1_Team__Output)[];
  'next_page_token': (string);
}
