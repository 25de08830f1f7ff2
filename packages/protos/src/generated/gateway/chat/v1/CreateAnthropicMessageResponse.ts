// Original file: proto/gateway/chat/v1/chat.proto

import type { MeteredUsage as _gateway_chat_v1_MeteredUsage, MeteredUsage__Output as _gateway_chat_v1_MeteredUsage__Output } from '../../../gateway/chat/v1/MeteredUsage.js';

export interface CreateAnthropicMessageResponse {
  /**
   * The message object (JSON).
   */
  'body'?: (Buffer | Uint8Array | string);
  'usage'?: (_gateway_chat_v1_MeteredUsage | null);
  /**
   * Types of the request's tools the group cannot run (server tools), dropped (x-gateway-dropped).
   */
  'dropped_tools'?: (string)[];
}

export interface CreateAnthropicMessageResponse__Output {
  /**
   * The message object (JSON).
   */
  'body': (Buffer);
  'usage': (_gateway_chat_v1_MeteredUsage__Output | null);
  /**
   * Types of the request's tools the group cannot run (server tools), dropped (x-gateway-dropped).
   */
  'dropped_tools': (string)[];
}
