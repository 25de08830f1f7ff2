import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ModelGroup as _gateway_common_v1_ModelGroup, ModelGroup__Output as _gateway_common_v1_ModelGroup__Output } from './gateway/common/v1/ModelGroup.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    common: {
      v1: {
        ModelGroup: MessageTypeDefinition<_gateway_common_v1_ModelGroup, _gateway_common_v1_ModelGroup__Output>
        ModelGroupMode: EnumTypeDefinition
      }
    }
  }
}

