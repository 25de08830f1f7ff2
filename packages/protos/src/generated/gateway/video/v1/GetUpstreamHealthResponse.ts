// Original file: proto/gateway/video/v1/video.proto

import type { DeploymentHealth as _gateway_common_v1_DeploymentHealth, DeploymentHealth__Output as _gateway_common_v1_DeploymentHealth__Output } from '../../../gateway/common/v1/DeploymentHealth.js';

export interface GetUpstreamHealthResponse {
  'deployments'?: (_gateway_common_v1_DeploymentHealth)[];
}

export interface GetUpstreamHealthResponse__Output {
  'deployments': (_gateway_common_v1_DeploymentHealth__Output)[];
}
