// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Team as _gateway_accounting_v1_Team, Team__Output as _gateway_accounting_v1_Team__Output } from '../../../gateway/accounting/v1/Team.js';

export interface CreateTeamResponse {
  'team'?: (_gateway_accounting_v1_Team | null);
}

export interface CreateTeamResponse__Output {
  'team': (_gateway_accounting_v1_Team__Output | null);
}
