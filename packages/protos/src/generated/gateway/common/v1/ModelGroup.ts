// Original file: proto/gateway/common/v1/model_group.proto

import type { ModelGroupMode as _gateway_common_v1_ModelGroupMode, ModelGroupMode__Output as _gateway_common_v1_ModelGroupMode__Output } from '../../../gateway/common/v1/ModelGroupMode.js';
import type { Long } from '@grpc/proto-loader';

/**
 * A model group as the services that serve it describe it to the edge.
 * Only groups with at least one configured credential are ever sent.
 */
export interface ModelGroup {
  /**
   * The identifier callers put in `model`.
   */
  'id'?: (string);
  /**
   * Other names accepted in `model`; never listed by /v1/models.
   */
  'aliases'?: (string)[];
  'max_input_tokens'?: (number | string | Long);
  'max_output_tokens'?: (number | string | Long);
  'mode'?: (_gateway_common_v1_ModelGroupMode);
  /**
   * Unix milliseconds; the same for every replica that loads the same config.
   */
  'created_at_ms'?: (number | string | Long);
}

/**
 * A model group as the services that serve it describe it to the edge.
 * Only groups with at least one configured credential are ever sent.
 */
export interface ModelGroup__Output {
  /**
   * The identifier callers put in `model`.
   */
  'id': (string);
  /**
   * Other names accepted in `model`; never listed by /v1/models.
   */
  'aliases': (string)[];
  'max_input_tokens': (number);
  'max_output_tokens': (number);
  'mode': (_gateway_common_v1_ModelGroupMode__Output);
  /**
   * Unix milliseconds; the same for every replica that loads the same config.
   */
  'created_at_ms': (number);
}
