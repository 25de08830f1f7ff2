import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { DeploymentHealth as _gateway_common_v1_DeploymentHealth, DeploymentHealth__Output as _gateway_common_v1_DeploymentHealth__Output } from './gateway/common/v1/DeploymentHealth.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    common: {
      v1: {
        DeploymentHealth: MessageTypeDefinition<_gateway_common_v1_DeploymentHealth, _gateway_common_v1_DeploymentHealth__Output>
        DeploymentState: EnumTypeDefinition
      }
    }
  }
}

