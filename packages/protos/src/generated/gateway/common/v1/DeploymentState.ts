// Original file: proto/gateway/common/v1/upstream_health.proto

export const DeploymentState = {
  DEPLOYMENT_STATE_UNSPECIFIED: 'DEPLOYMENT_STATE_UNSPECIFIED',
  DEPLOYMENT_STATE_HEALTHY: 'DEPLOYMENT_STATE_HEALTHY',
  /**
   * Skipped after failing `allowed_fails` times in a row, until `until_ms`.
   */
  DEPLOYMENT_STATE_COOLING_DOWN: 'DEPLOYMENT_STATE_COOLING_DOWN',
  /**
   * The upstream asked for a pause (429 with Retry-After), until `until_ms`.
   */
  DEPLOYMENT_STATE_RATE_LIMITED: 'DEPLOYMENT_STATE_RATE_LIMITED',
} as const;

export type DeploymentState =
  | 'DEPLOYMENT_STATE_UNSPECIFIED'
  | 0
  | 'DEPLOYMENT_STATE_HEALTHY'
  | 1
  /**
   * Skipped after failing `allowed_fails` times in a row, until `until_ms`.
   */
  | 'DEPLOYMENT_STATE_COOLING_DOWN'
  | 2
  /**
   * The upstream asked for a pause (429 with Retry-After), until `until_ms`.
   */
  | 'DEPLOYMENT_STATE_RATE_LIMITED'
  | 3

export type DeploymentState__Output = typeof DeploymentState[keyof typeof DeploymentState]
