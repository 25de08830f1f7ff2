// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateKeyRequest {
  'name'?: (string);
  'models'?: (string)[];
  'budget_nano_usd'?: (number | string | Long);
  'rpm'?: (number);
  'tpm'?: (number);
}

export interface CreateKeyRequest__Output {
  'name': (string);
  'models': (string)[];
  'budget_nano_usd': (number);
  'rpm': (number);
  'tpm': (number);
}
