// Original file: proto/gateway/chat/v1/chat.proto

import type { MeteredUsage as _gateway_chat_v1_MeteredUsage, MeteredUsage__Output as _gateway_chat_v1_MeteredUsage__Output } from '../../../gateway/chat/v1/MeteredUsage.js';

export interface StreamAnthropicMessageResponse {
  /**
   * Whole server-sent event frames ("event: …\ndata: …\n\n"), one per event, in order.
   */
  'events'?: (Buffer | Uint8Array | string)[];
  /**
   * On the last message only: what the call was metered at.
   */
  'usage'?: (_gateway_chat_v1_MeteredUsage | null);
  /**
   * On the first message only: the request's tool types dropped (x-gateway-dropped).
   */
  'dropped_tools'?: (string)[];
}

export interface StreamAnthropicMessageResponse__Output {
  /**
   * Whole server-sent event frames ("event: …\ndata: …\n\n"), one per event, in order.
   */
  'events': (Buffer)[];
  /**
   * On the last message only: what the call was metered at.
   */
  'usage': (_gateway_chat_v1_MeteredUsage__Output | null);
  /**
   * On the first message only: the request's tool types dropped (x-gateway-dropped).
   */
  'dropped_tools': (string)[];
}
