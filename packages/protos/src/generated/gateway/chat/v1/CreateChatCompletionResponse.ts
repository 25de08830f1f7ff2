// Original file: proto/gateway/chat/v1/chat.proto

import type { MeteredUsage as _gateway_chat_v1_MeteredUsage, MeteredUsage__Output as _gateway_chat_v1_MeteredUsage__Output } from '../../../gateway/chat/v1/MeteredUsage.js';

export interface CreateChatCompletionResponse {
  /**
   * The OpenAI-shaped response body as JSON.
   */
  'body'?: (Buffer | Uint8Array | string);
  /**
   * What the call was metered at; unset when the upstream gave no usage (nothing billed).
   */
  'usage'?: (_gateway_chat_v1_MeteredUsage | null);
}

export interface CreateChatCompletionResponse__Output {
  /**
   * The OpenAI-shaped response body as JSON.
   */
  'body': (Buffer);
  /**
   * What the call was metered at; unset when the upstream gave no usage (nothing billed).
   */
  'usage': (_gateway_chat_v1_MeteredUsage__Output | null);
}
