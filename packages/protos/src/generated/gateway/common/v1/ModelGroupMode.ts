// Original file: proto/gateway/common/v1/model_group.proto

/**
 * Which endpoints a group answers.
 */
export const ModelGroupMode = {
  MODEL_GROUP_MODE_UNSPECIFIED: 'MODEL_GROUP_MODE_UNSPECIFIED',
  MODEL_GROUP_MODE_CHAT: 'MODEL_GROUP_MODE_CHAT',
  MODEL_GROUP_MODE_VIDEO: 'MODEL_GROUP_MODE_VIDEO',
} as const;

/**
 * Which endpoints a group answers.
 */
export type ModelGroupMode =
  | 'MODEL_GROUP_MODE_UNSPECIFIED'
  | 0
  | 'MODEL_GROUP_MODE_CHAT'
  | 1
  | 'MODEL_GROUP_MODE_VIDEO'
  | 2

/**
 * Which endpoints a group answers.
 */
export type ModelGroupMode__Output = typeof ModelGroupMode[keyof typeof ModelGroupMode]
