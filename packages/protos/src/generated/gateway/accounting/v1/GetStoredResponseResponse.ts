// Original file: proto/gateway/accounting/v1/accounting.proto

import type { StoredResponse as _gateway_accounting_v1_StoredResponse, StoredResponse__Output as _gateway_accounting_v1_StoredResponse__Output } from '../../../gateway/accounting/v1/StoredResponse.js';

export interface GetStoredResponseResponse {
  'response'?: (_gateway_accounting_v1_StoredResponse | null);
}

export interface GetStoredResponseResponse__Output {
  'response': (_gateway_accounting_v1_StoredResponse__Output | null);
}
