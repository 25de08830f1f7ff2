import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AccountingServiceClient as _gateway_accounting_v1_AccountingServiceClient, AccountingServiceDefinition as _gateway_accounting_v1_AccountingServiceDefinition } from './gateway/accounting/v1/AccountingService.js';
import type { AuthenticateKeyRequest as _gateway_accounting_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _gateway_accounting_v1_AuthenticateKeyRequest__Output } from './gateway/accounting/v1/AuthenticateKeyRequest.js';
import type { AuthenticateKeyResponse as _gateway_accounting_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _gateway_accounting_v1_AuthenticateKeyResponse__Output } from './gateway/accounting/v1/AuthenticateKeyResponse.js';
import type { CreateKeyRequest as _gateway_accounting_v1_CreateKeyRequest, CreateKeyRequest__Output as _gateway_accounting_v1_CreateKeyRequest__Output } from './gateway/accounting/v1/CreateKeyRequest.js';
import type { CreateKeyResponse as _gateway_accounting_v1_CreateKeyResponse, CreateKeyResponse__Output as _gateway_accounting_v1_CreateKeyResponse__Output } from './gateway/accounting/v1/CreateKeyResponse.js';
import type { GetKeyRequest as _gateway_accounting_v1_GetKeyRequest, GetKeyRequest__Output as _gateway_accounting_v1_GetKeyRequest__Output } from './gateway/accounting/v1/GetKeyRequest.js';
import type { GetKeyResponse as _gateway_accounting_v1_GetKeyResponse, GetKeyResponse__Output as _gateway_accounting_v1_GetKeyResponse__Output } from './gateway/accounting/v1/GetKeyResponse.js';
import type { GetUsageRequest as _gateway_accounting_v1_GetUsageRequest, GetUsageRequest__Output as _gateway_accounting_v1_GetUsageRequest__Output } from './gateway/accounting/v1/GetUsageRequest.js';
import type { GetUsageResponse as _gateway_accounting_v1_GetUsageResponse, GetUsageResponse__Output as _gateway_accounting_v1_GetUsageResponse__Output } from './gateway/accounting/v1/GetUsageResponse.js';
import type { GroupUsage as _gateway_accounting_v1_GroupUsage, GroupUsage__Output as _gateway_accounting_v1_GroupUsage__Output } from './gateway/accounting/v1/GroupUsage.js';
import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from './gateway/accounting/v1/Key.js';
import type { LeaseBudgetRequest as _gateway_accounting_v1_LeaseBudgetRequest, LeaseBudgetRequest__Output as _gateway_accounting_v1_LeaseBudgetRequest__Output } from './gateway/accounting/v1/LeaseBudgetRequest.js';
import type { LeaseBudgetResponse as _gateway_accounting_v1_LeaseBudgetResponse, LeaseBudgetResponse__Output as _gateway_accounting_v1_LeaseBudgetResponse__Output } from './gateway/accounting/v1/LeaseBudgetResponse.js';
import type { ListKeysRequest as _gateway_accounting_v1_ListKeysRequest, ListKeysRequest__Output as _gateway_accounting_v1_ListKeysRequest__Output } from './gateway/accounting/v1/ListKeysRequest.js';
import type { ListKeysResponse as _gateway_accounting_v1_ListKeysResponse, ListKeysResponse__Output as _gateway_accounting_v1_ListKeysResponse__Output } from './gateway/accounting/v1/ListKeysResponse.js';
import type { ReleaseReservationRequest as _gateway_accounting_v1_ReleaseReservationRequest, ReleaseReservationRequest__Output as _gateway_accounting_v1_ReleaseReservationRequest__Output } from './gateway/accounting/v1/ReleaseReservationRequest.js';
import type { ReleaseReservationResponse as _gateway_accounting_v1_ReleaseReservationResponse, ReleaseReservationResponse__Output as _gateway_accounting_v1_ReleaseReservationResponse__Output } from './gateway/accounting/v1/ReleaseReservationResponse.js';
import type { ReserveBudgetRequest as _gateway_accounting_v1_ReserveBudgetRequest, ReserveBudgetRequest__Output as _gateway_accounting_v1_ReserveBudgetRequest__Output } from './gateway/accounting/v1/ReserveBudgetRequest.js';
import type { ReserveBudgetResponse as _gateway_accounting_v1_ReserveBudgetResponse, ReserveBudgetResponse__Output as _gateway_accounting_v1_ReserveBudgetResponse__Output } from './gateway/accounting/v1/ReserveBudgetResponse.js';
import type { ReserveBudgetResult as _gateway_accounting_v1_ReserveBudgetResult, ReserveBudgetResult__Output as _gateway_accounting_v1_ReserveBudgetResult__Output } from './gateway/accounting/v1/ReserveBudgetResult.js';
import type { ReserveBudgetsRequest as _gateway_accounting_v1_ReserveBudgetsRequest, ReserveBudgetsRequest__Output as _gateway_accounting_v1_ReserveBudgetsRequest__Output } from './gateway/accounting/v1/ReserveBudgetsRequest.js';
import type { ReserveBudgetsResponse as _gateway_accounting_v1_ReserveBudgetsResponse, ReserveBudgetsResponse__Output as _gateway_accounting_v1_ReserveBudgetsResponse__Output } from './gateway/accounting/v1/ReserveBudgetsResponse.js';
import type { RevokeKeyRequest as _gateway_accounting_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _gateway_accounting_v1_RevokeKeyRequest__Output } from './gateway/accounting/v1/RevokeKeyRequest.js';
import type { RevokeKeyResponse as _gateway_accounting_v1_RevokeKeyResponse, RevokeKeyResponse__Output as _gateway_accounting_v1_RevokeKeyResponse__Output } from './gateway/accounting/v1/RevokeKeyResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    accounting: {
      v1: {
        /**
         * Keys, model access, budgets and spend.
         */
        AccountingService: SubtypeConstructor<typeof grpc.Client, _gateway_accounting_v1_AccountingServiceClient> & { service: _gateway_accounting_v1_AccountingServiceDefinition }
        AuthenticateKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_AuthenticateKeyRequest, _gateway_accounting_v1_AuthenticateKeyRequest__Output>
        AuthenticateKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_AuthenticateKeyResponse, _gateway_accounting_v1_AuthenticateKeyResponse__Output>
        CreateKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_CreateKeyRequest, _gateway_accounting_v1_CreateKeyRequest__Output>
        CreateKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_CreateKeyResponse, _gateway_accounting_v1_CreateKeyResponse__Output>
        GetKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_GetKeyRequest, _gateway_accounting_v1_GetKeyRequest__Output>
        GetKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_GetKeyResponse, _gateway_accounting_v1_GetKeyResponse__Output>
        GetUsageRequest: MessageTypeDefinition<_gateway_accounting_v1_GetUsageRequest, _gateway_accounting_v1_GetUsageRequest__Output>
        GetUsageResponse: MessageTypeDefinition<_gateway_accounting_v1_GetUsageResponse, _gateway_accounting_v1_GetUsageResponse__Output>
        GroupUsage: MessageTypeDefinition<_gateway_accounting_v1_GroupUsage, _gateway_accounting_v1_GroupUsage__Output>
        Key: MessageTypeDefinition<_gateway_accounting_v1_Key, _gateway_accounting_v1_Key__Output>
        LeaseBudgetRequest: MessageTypeDefinition<_gateway_accounting_v1_LeaseBudgetRequest, _gateway_accounting_v1_LeaseBudgetRequest__Output>
        LeaseBudgetResponse: MessageTypeDefinition<_gateway_accounting_v1_LeaseBudgetResponse, _gateway_accounting_v1_LeaseBudgetResponse__Output>
        ListKeysRequest: MessageTypeDefinition<_gateway_accounting_v1_ListKeysRequest, _gateway_accounting_v1_ListKeysRequest__Output>
        ListKeysResponse: MessageTypeDefinition<_gateway_accounting_v1_ListKeysResponse, _gateway_accounting_v1_ListKeysResponse__Output>
        ReleaseReservationRequest: MessageTypeDefinition<_gateway_accounting_v1_ReleaseReservationRequest, _gateway_accounting_v1_ReleaseReservationRequest__Output>
        ReleaseReservationResponse: MessageTypeDefinition<_gateway_accounting_v1_ReleaseReservationResponse, _gateway_accounting_v1_ReleaseReservationResponse__Output>
        ReserveBudgetRequest: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetRequest, _gateway_accounting_v1_ReserveBudgetRequest__Output>
        ReserveBudgetResponse: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetResponse, _gateway_accounting_v1_ReserveBudgetResponse__Output>
        ReserveBudgetResult: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetResult, _gateway_accounting_v1_ReserveBudgetResult__Output>
        ReserveBudgetsRequest: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetsRequest, _gateway_accounting_v1_ReserveBudgetsRequest__Output>
        ReserveBudgetsResponse: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetsResponse, _gateway_accounting_v1_ReserveBudgetsResponse__Output>
        RevokeKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_RevokeKeyRequest, _gateway_accounting_v1_RevokeKeyRequest__Output>
        RevokeKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_RevokeKeyResponse, _gateway_accounting_v1_RevokeKeyResponse__Output>
      }
    }
  }
}

