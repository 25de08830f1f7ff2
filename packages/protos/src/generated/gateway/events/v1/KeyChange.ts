// Original file: proto/gateway/events/v1/events.proto

/**
 * What happened to a key.
 */
export const KeyChange = {
  KEY_CHANGE_UNSPECIFIED: 'KEY_CHANGE_UNSPECIFIED',
  KEY_CHANGE_CREATED: 'KEY_CHANGE_CREATED',
  KEY_CHANGE_REVOKED: 'KEY_CHANGE_REVOKED',
  KEY_CHANGE_UPDATED: 'KEY_CHANGE_UPDATED',
} as const;

/**
 * What happened to a key.
 */
export type KeyChange =
  | 'KEY_CHANGE_UNSPECIFIED'
  | 0
  | 'KEY_CHANGE_CREATED'
  | 1
  | 'KEY_CHANGE_REVOKED'
  | 2
  | 'KEY_CHANGE_UPDATED'
  | 3

/**
 * What happened to a key.
 */
export type KeyChange__Output = typeof KeyChange[keyof typeof KeyChange]
