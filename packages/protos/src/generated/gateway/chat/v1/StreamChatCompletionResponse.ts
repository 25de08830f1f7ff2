// Original file: proto/gateway/chat/v1/chat.proto

import type { MeteredUsage as _gateway_chat_v1_MeteredUsage, MeteredUsage__Output as _gateway_chat_v1_MeteredUsage__Output } from '../../../gateway/chat/v1/MeteredUsage.js';

export interface StreamChatCompletionResponse {
  /**
   * OpenAI-shaped chunks as JSON, each relayed as one SSE `data:` event. Chunks that arrived from
   * the upstream together travel together; none is held back waiting for another.
   */
  'chunks'?: (Buffer | Uint8Array | string)[];
  /**
   * Set on the stream's last message, which carries no chunks, once the call is metered.
   */
  'usage'?: (_gateway_chat_v1_MeteredUsage | null);
}

export interface StreamChatCompletionResponse__Output {
  /**
   * OpenAI-shaped chunks as JSON, each relayed as one SSE `data:` event. Chunks that arrived from
   * the upstream together travel together; none is held back waiting for another.
   */
  'chunks': (Buffer)[];
  /**
   * Set on the stream's last message, which carries no chunks, once the call is metered.
   */
  'usage': (_gateway_chat_v1_MeteredUsage__Output | null);
}
