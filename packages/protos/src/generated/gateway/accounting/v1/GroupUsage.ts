// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface GroupUsage {
  'group'?: (string);
  'spent_nano_usd'?: (number | string | Long);
  'requests'?: (number | string | Long);
  /**
   * Prompt tokens the upstream served from its prompt cache (a part of the prompt tokens).
   */
  'cached_tokens'?: (number | string | Long);
  /**
   * What those cached tokens saved against the uncached input price.
   */
  'cache_saved_nano_usd'?: (number | string | Long);
}

export interface GroupUsage__Output {
  'group': (string);
  'spent_nano_usd': (number);
  'requests': (number);
  /**
   * Prompt tokens the upstream served from its prompt cache (a part of the prompt tokens).
   */
  'cached_tokens': (number);
  /**
   * What those cached tokens saved against the uncached input price.
   */
  'cache_saved_nano_usd': (number);
}
