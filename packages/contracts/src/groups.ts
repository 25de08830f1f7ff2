import type { ModelGroup__Output, ModelGroupMode__Output } from '@gateway/protos';

// A group's mode crosses gRPC as the ModelGroupMode enum and is 'chat' or 'video' on both
// sides of it (the configuration, the HTTP API): the one table between them, used by the
// services that send groups and by the edge that reads them.

export type GroupMode = 'chat' | 'video';

const MESSAGE: Readonly<Record<GroupMode, ModelGroupMode__Output>> = {
  chat: 'MODEL_GROUP_MODE_CHAT',
  video: 'MODEL_GROUP_MODE_VIDEO',
};

/** The enum value a group's mode travels as. */
export function modeMessage(mode: GroupMode): ModelGroupMode__Output {
  return MESSAGE[mode];
}

/** The mode of a group received over gRPC; undefined for a value this build does not know. */
export function groupMode(group: Pick<ModelGroup__Output, 'mode'>): GroupMode | undefined {
  if (group.mode === MESSAGE.chat) return 'chat';
  if (group.mode === MESSAGE.video) return 'video';
  return undefined;
}
