// Original file: proto/gateway/common/v1/upstream_health.proto

import type { DeploymentState as _gateway_common_v1_DeploymentState, DeploymentState__Output as _gateway_common_v1_DeploymentState__Output } from '../../../gateway/common/v1/DeploymentState.js';
import type { Long } from '@grpc/proto-loader';

/**
 * One served deployment of a group (a provider's model behind one credential) as the answering
 * replica's router sees it: each replica keeps its own.
 */
export interface DeploymentHealth {
  'group'?: (string);
  /**
   * Its position in the group's `deployments` list (config order, from 0).
   */
  'index'?: (number);
  'provider'?: (string);
  /**
   * The provider's model name.
   */
  'model'?: (string);
  'state'?: (_gateway_common_v1_DeploymentState);
  /**
   * Retryable failures in a row since the last success.
   */
  'consecutive_failures'?: (number);
  /**
   * Unix milliseconds: when a cooldown or the upstream's requested pause ends; 0 when healthy.
   */
  'until_ms'?: (number | string | Long);
  /**
   * Failed attempts in the last five minutes.
   */
  'recent_errors'?: (number);
  /**
   * The last failure's kind ("timeout", "server_error", …); empty when none was seen.
   */
  'last_error_kind'?: (string);
  /**
   * Unix milliseconds; 0 when none was seen.
   */
  'last_error_at_ms'?: (number | string | Long);
}

/**
 * One served deployment of a group (a provider's model behind one credential) as the answering
 * replica's router sees it: each replica keeps its own.
 */
export interface DeploymentHealth__Output {
  'group': (string);
  /**
   * Its position in the group's `deployments` list (config order, from 0).
   */
  'index': (number);
  'provider': (string);
  /**
   * The provider's model name.
   */
  'model': (string);
  'state': (_gateway_common_v1_DeploymentState__Output);
  /**
   * Retryable failures in a row since the last success.
   */
  'consecutive_failures': (number);
  /**
   * Unix milliseconds: when a cooldown or the upstream's requested pause ends; 0 when healthy.
   */
  'until_ms': (number);
  /**
   * Failed attempts in the last five minutes.
   */
  'recent_errors': (number);
  /**
   * The last failure's kind ("timeout", "server_error", …); empty when none was seen.
   */
  'last_error_kind': (string);
  /**
   * Unix milliseconds; 0 when none was seen.
   */
  'last_error_at_ms': (number);
}
