// Original file: proto/gateway/events/v1/events.proto

/**
 * What a spend event paid for.
 */
export const SpendKind = {
  SPEND_KIND_UNSPECIFIED: 'SPEND_KIND_UNSPECIFIED',
  SPEND_KIND_CHAT: 'SPEND_KIND_CHAT',
  SPEND_KIND_VIDEO: 'SPEND_KIND_VIDEO',
} as const;

/**
 * What a spend event paid for.
 */
export type SpendKind =
  | 'SPEND_KIND_UNSPECIFIED'
  | 0
  | 'SPEND_KIND_CHAT'
  | 1
  | 'SPEND_KIND_VIDEO'
  | 2

/**
 * What a spend event paid for.
 */
export type SpendKind__Output = typeof SpendKind[keyof typeof SpendKind]
