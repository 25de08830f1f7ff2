// Original file: proto/gateway/chat/v1/chat.proto

import type { Long } from '@grpc/proto-loader';

export interface CountAnthropicTokensResponse {
  'input_tokens'?: (number | string | Long);
}

export interface CountAnthropicTokensResponse__Output {
  'input_tokens': (number);
}
