// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface GroupUsage {
  'group'?: (string);
  'spent_nano_usd'?: (number | string | Long);
  'requests'?: (number | string | Long);
}

export interface GroupUsage__Output {
  'group': (string);
  'spent_nano_usd': (number);
  'requests': (number);
}
