// Original file: proto/gateway/video/v1/video.proto

import type { ModelGroup as _gateway_common_v1_ModelGroup, ModelGroup__Output as _gateway_common_v1_ModelGroup__Output } from '../../../gateway/common/v1/ModelGroup.js';

export interface ListModelsResponse {
  'groups'?: (_gateway_common_v1_ModelGroup)[];
}

export interface ListModelsResponse__Output {
  'groups': (_gateway_common_v1_ModelGroup__Output)[];
}
