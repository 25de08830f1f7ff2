import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AccountingServiceClient as _gateway_accounting_v1_AccountingServiceClient, AccountingServiceDefinition as _gateway_accounting_v1_AccountingServiceDefinition } from './gateway/accounting/v1/AccountingService.js';
import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from './gateway/accounting/v1/AuditContext.js';
import type { AuditEvent as _gateway_accounting_v1_AuditEvent, AuditEvent__Output as _gateway_accounting_v1_AuditEvent__Output } from './gateway/accounting/v1/AuditEvent.js';
import type { AuthenticateKeyRequest as _gateway_accounting_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _gateway_accounting_v1_AuthenticateKeyRequest__Output } from './gateway/accounting/v1/AuthenticateKeyRequest.js';
import type { AuthenticateKeyResponse as _gateway_accounting_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _gateway_accounting_v1_AuthenticateKeyResponse__Output } from './gateway/accounting/v1/AuthenticateKeyResponse.js';
import type { Balance as _gateway_accounting_v1_Balance, Balance__Output as _gateway_accounting_v1_Balance__Output } from './gateway/accounting/v1/Balance.js';
import type { CreateKeyRequest as _gateway_accounting_v1_CreateKeyRequest, CreateKeyRequest__Output as _gateway_accounting_v1_CreateKeyRequest__Output } from './gateway/accounting/v1/CreateKeyRequest.js';
import type { CreateKeyResponse as _gateway_accounting_v1_CreateKeyResponse, CreateKeyResponse__Output as _gateway_accounting_v1_CreateKeyResponse__Output } from './gateway/accounting/v1/CreateKeyResponse.js';
import type { CreateTeamRequest as _gateway_accounting_v1_CreateTeamRequest, CreateTeamRequest__Output as _gateway_accounting_v1_CreateTeamRequest__Output } from './gateway/accounting/v1/CreateTeamRequest.js';
import type { CreateTeamResponse as _gateway_accounting_v1_CreateTeamResponse, CreateTeamResponse__Output as _gateway_accounting_v1_CreateTeamResponse__Output } from './gateway/accounting/v1/CreateTeamResponse.js';
import type { DailySpend as _gateway_accounting_v1_DailySpend, DailySpend__Output as _gateway_accounting_v1_DailySpend__Output } from './gateway/accounting/v1/DailySpend.js';
import type { DeleteStoredResponseRequest as _gateway_accounting_v1_DeleteStoredResponseRequest, DeleteStoredResponseRequest__Output as _gateway_accounting_v1_DeleteStoredResponseRequest__Output } from './gateway/accounting/v1/DeleteStoredResponseRequest.js';
import type { DeleteStoredResponseResponse as _gateway_accounting_v1_DeleteStoredResponseResponse, DeleteStoredResponseResponse__Output as _gateway_accounting_v1_DeleteStoredResponseResponse__Output } from './gateway/accounting/v1/DeleteStoredResponseResponse.js';
import type { DeleteTeamRequest as _gateway_accounting_v1_DeleteTeamRequest, DeleteTeamRequest__Output as _gateway_accounting_v1_DeleteTeamRequest__Output } from './gateway/accounting/v1/DeleteTeamRequest.js';
import type { DeleteTeamResponse as _gateway_accounting_v1_DeleteTeamResponse, DeleteTeamResponse__Output as _gateway_accounting_v1_DeleteTeamResponse__Output } from './gateway/accounting/v1/DeleteTeamResponse.js';
import type { GetDailySpendRequest as _gateway_accounting_v1_GetDailySpendRequest, GetDailySpendRequest__Output as _gateway_accounting_v1_GetDailySpendRequest__Output } from './gateway/accounting/v1/GetDailySpendRequest.js';
import type { GetDailySpendResponse as _gateway_accounting_v1_GetDailySpendResponse, GetDailySpendResponse__Output as _gateway_accounting_v1_GetDailySpendResponse__Output } from './gateway/accounting/v1/GetDailySpendResponse.js';
import type { GetKeyRequest as _gateway_accounting_v1_GetKeyRequest, GetKeyRequest__Output as _gateway_accounting_v1_GetKeyRequest__Output } from './gateway/accounting/v1/GetKeyRequest.js';
import type { GetKeyResponse as _gateway_accounting_v1_GetKeyResponse, GetKeyResponse__Output as _gateway_accounting_v1_GetKeyResponse__Output } from './gateway/accounting/v1/GetKeyResponse.js';
import type { GetStoredResponseRequest as _gateway_accounting_v1_GetStoredResponseRequest, GetStoredResponseRequest__Output as _gateway_accounting_v1_GetStoredResponseRequest__Output } from './gateway/accounting/v1/GetStoredResponseRequest.js';
import type { GetStoredResponseResponse as _gateway_accounting_v1_GetStoredResponseResponse, GetStoredResponseResponse__Output as _gateway_accounting_v1_GetStoredResponseResponse__Output } from './gateway/accounting/v1/GetStoredResponseResponse.js';
import type { GetTeamRequest as _gateway_accounting_v1_GetTeamRequest, GetTeamRequest__Output as _gateway_accounting_v1_GetTeamRequest__Output } from './gateway/accounting/v1/GetTeamRequest.js';
import type { GetTeamResponse as _gateway_accounting_v1_GetTeamResponse, GetTeamResponse__Output as _gateway_accounting_v1_GetTeamResponse__Output } from './gateway/accounting/v1/GetTeamResponse.js';
import type { GetTopSpendersRequest as _gateway_accounting_v1_GetTopSpendersRequest, GetTopSpendersRequest__Output as _gateway_accounting_v1_GetTopSpendersRequest__Output } from './gateway/accounting/v1/GetTopSpendersRequest.js';
import type { GetTopSpendersResponse as _gateway_accounting_v1_GetTopSpendersResponse, GetTopSpendersResponse__Output as _gateway_accounting_v1_GetTopSpendersResponse__Output } from './gateway/accounting/v1/GetTopSpendersResponse.js';
import type { GetUsageRequest as _gateway_accounting_v1_GetUsageRequest, GetUsageRequest__Output as _gateway_accounting_v1_GetUsageRequest__Output } from './gateway/accounting/v1/GetUsageRequest.js';
import type { GetUsageResponse as _gateway_accounting_v1_GetUsageResponse, GetUsageResponse__Output as _gateway_accounting_v1_GetUsageResponse__Output } from './gateway/accounting/v1/GetUsageResponse.js';
import type { GroupUsage as _gateway_accounting_v1_GroupUsage, GroupUsage__Output as _gateway_accounting_v1_GroupUsage__Output } from './gateway/accounting/v1/GroupUsage.js';
import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from './gateway/accounting/v1/Key.js';
import type { KeyPatch as _gateway_accounting_v1_KeyPatch, KeyPatch__Output as _gateway_accounting_v1_KeyPatch__Output } from './gateway/accounting/v1/KeyPatch.js';
import type { LeaseBudgetRequest as _gateway_accounting_v1_LeaseBudgetRequest, LeaseBudgetRequest__Output as _gateway_accounting_v1_LeaseBudgetRequest__Output } from './gateway/accounting/v1/LeaseBudgetRequest.js';
import type { LeaseBudgetResponse as _gateway_accounting_v1_LeaseBudgetResponse, LeaseBudgetResponse__Output as _gateway_accounting_v1_LeaseBudgetResponse__Output } from './gateway/accounting/v1/LeaseBudgetResponse.js';
import type { ListAuditEventsRequest as _gateway_accounting_v1_ListAuditEventsRequest, ListAuditEventsRequest__Output as _gateway_accounting_v1_ListAuditEventsRequest__Output } from './gateway/accounting/v1/ListAuditEventsRequest.js';
import type { ListAuditEventsResponse as _gateway_accounting_v1_ListAuditEventsResponse, ListAuditEventsResponse__Output as _gateway_accounting_v1_ListAuditEventsResponse__Output } from './gateway/accounting/v1/ListAuditEventsResponse.js';
import type { ListKeysRequest as _gateway_accounting_v1_ListKeysRequest, ListKeysRequest__Output as _gateway_accounting_v1_ListKeysRequest__Output } from './gateway/accounting/v1/ListKeysRequest.js';
import type { ListKeysResponse as _gateway_accounting_v1_ListKeysResponse, ListKeysResponse__Output as _gateway_accounting_v1_ListKeysResponse__Output } from './gateway/accounting/v1/ListKeysResponse.js';
import type { ListSpendLogsRequest as _gateway_accounting_v1_ListSpendLogsRequest, ListSpendLogsRequest__Output as _gateway_accounting_v1_ListSpendLogsRequest__Output } from './gateway/accounting/v1/ListSpendLogsRequest.js';
import type { ListSpendLogsResponse as _gateway_accounting_v1_ListSpendLogsResponse, ListSpendLogsResponse__Output as _gateway_accounting_v1_ListSpendLogsResponse__Output } from './gateway/accounting/v1/ListSpendLogsResponse.js';
import type { ListTeamsRequest as _gateway_accounting_v1_ListTeamsRequest, ListTeamsRequest__Output as _gateway_accounting_v1_ListTeamsRequest__Output } from './gateway/accounting/v1/ListTeamsRequest.js';
import type { ListTeamsResponse as _gateway_accounting_v1_ListTeamsResponse, ListTeamsResponse__Output as _gateway_accounting_v1_ListTeamsResponse__Output } from './gateway/accounting/v1/ListTeamsResponse.js';
import type { PutStoredResponseRequest as _gateway_accounting_v1_PutStoredResponseRequest, PutStoredResponseRequest__Output as _gateway_accounting_v1_PutStoredResponseRequest__Output } from './gateway/accounting/v1/PutStoredResponseRequest.js';
import type { PutStoredResponseResponse as _gateway_accounting_v1_PutStoredResponseResponse, PutStoredResponseResponse__Output as _gateway_accounting_v1_PutStoredResponseResponse__Output } from './gateway/accounting/v1/PutStoredResponseResponse.js';
import type { ReleaseReservationRequest as _gateway_accounting_v1_ReleaseReservationRequest, ReleaseReservationRequest__Output as _gateway_accounting_v1_ReleaseReservationRequest__Output } from './gateway/accounting/v1/ReleaseReservationRequest.js';
import type { ReleaseReservationResponse as _gateway_accounting_v1_ReleaseReservationResponse, ReleaseReservationResponse__Output as _gateway_accounting_v1_ReleaseReservationResponse__Output } from './gateway/accounting/v1/ReleaseReservationResponse.js';
import type { ReserveBudgetRequest as _gateway_accounting_v1_ReserveBudgetRequest, ReserveBudgetRequest__Output as _gateway_accounting_v1_ReserveBudgetRequest__Output } from './gateway/accounting/v1/ReserveBudgetRequest.js';
import type { ReserveBudgetResponse as _gateway_accounting_v1_ReserveBudgetResponse, ReserveBudgetResponse__Output as _gateway_accounting_v1_ReserveBudgetResponse__Output } from './gateway/accounting/v1/ReserveBudgetResponse.js';
import type { ReserveBudgetResult as _gateway_accounting_v1_ReserveBudgetResult, ReserveBudgetResult__Output as _gateway_accounting_v1_ReserveBudgetResult__Output } from './gateway/accounting/v1/ReserveBudgetResult.js';
import type { ReserveBudgetsRequest as _gateway_accounting_v1_ReserveBudgetsRequest, ReserveBudgetsRequest__Output as _gateway_accounting_v1_ReserveBudgetsRequest__Output } from './gateway/accounting/v1/ReserveBudgetsRequest.js';
import type { ReserveBudgetsResponse as _gateway_accounting_v1_ReserveBudgetsResponse, ReserveBudgetsResponse__Output as _gateway_accounting_v1_ReserveBudgetsResponse__Output } from './gateway/accounting/v1/ReserveBudgetsResponse.js';
import type { RevokeKeyRequest as _gateway_accounting_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _gateway_accounting_v1_RevokeKeyRequest__Output } from './gateway/accounting/v1/RevokeKeyRequest.js';
import type { RevokeKeyResponse as _gateway_accounting_v1_RevokeKeyResponse, RevokeKeyResponse__Output as _gateway_accounting_v1_RevokeKeyResponse__Output } from './gateway/accounting/v1/RevokeKeyResponse.js';
import type { RotateKeyRequest as _gateway_accounting_v1_RotateKeyRequest, RotateKeyRequest__Output as _gateway_accounting_v1_RotateKeyRequest__Output } from './gateway/accounting/v1/RotateKeyRequest.js';
import type { RotateKeyResponse as _gateway_accounting_v1_RotateKeyResponse, RotateKeyResponse__Output as _gateway_accounting_v1_RotateKeyResponse__Output } from './gateway/accounting/v1/RotateKeyResponse.js';
import type { SpendLogEntry as _gateway_accounting_v1_SpendLogEntry, SpendLogEntry__Output as _gateway_accounting_v1_SpendLogEntry__Output } from './gateway/accounting/v1/SpendLogEntry.js';
import type { StoredResponse as _gateway_accounting_v1_StoredResponse, StoredResponse__Output as _gateway_accounting_v1_StoredResponse__Output } from './gateway/accounting/v1/StoredResponse.js';
import type { Team as _gateway_accounting_v1_Team, Team__Output as _gateway_accounting_v1_Team__Output } from './gateway/accounting/v1/Team.js';
import type { TeamFields as _gateway_accounting_v1_TeamFields, TeamFields__Output as _gateway_accounting_v1_TeamFields__Output } from './gateway/accounting/v1/TeamFields.js';
import type { TopSpender as _gateway_accounting_v1_TopSpender, TopSpender__Output as _gateway_accounting_v1_TopSpender__Output } from './gateway/accounting/v1/TopSpender.js';
import type { UpdateKeyRequest as _gateway_accounting_v1_UpdateKeyRequest, UpdateKeyRequest__Output as _gateway_accounting_v1_UpdateKeyRequest__Output } from './gateway/accounting/v1/UpdateKeyRequest.js';
import type { UpdateKeyResponse as _gateway_accounting_v1_UpdateKeyResponse, UpdateKeyResponse__Output as _gateway_accounting_v1_UpdateKeyResponse__Output } from './gateway/accounting/v1/UpdateKeyResponse.js';
import type { UpdateTeamRequest as _gateway_accounting_v1_UpdateTeamRequest, UpdateTeamRequest__Output as _gateway_accounting_v1_UpdateTeamRequest__Output } from './gateway/accounting/v1/UpdateTeamRequest.js';
import type { UpdateTeamResponse as _gateway_accounting_v1_UpdateTeamResponse, UpdateTeamResponse__Output as _gateway_accounting_v1_UpdateTeamResponse__Output } from './gateway/accounting/v1/UpdateTeamResponse.js';

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
        AuditContext: MessageTypeDefinition<_gateway_accounting_v1_AuditContext, _gateway_accounting_v1_AuditContext__Output>
        AuditEvent: MessageTypeDefinition<_gateway_accounting_v1_AuditEvent, _gateway_accounting_v1_AuditEvent__Output>
        AuthenticateKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_AuthenticateKeyRequest, _gateway_accounting_v1_AuthenticateKeyRequest__Output>
        AuthenticateKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_AuthenticateKeyResponse, _gateway_accounting_v1_AuthenticateKeyResponse__Output>
        Balance: MessageTypeDefinition<_gateway_accounting_v1_Balance, _gateway_accounting_v1_Balance__Output>
        BudgetPeriod: EnumTypeDefinition
        CreateKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_CreateKeyRequest, _gateway_accounting_v1_CreateKeyRequest__Output>
        CreateKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_CreateKeyResponse, _gateway_accounting_v1_CreateKeyResponse__Output>
        CreateTeamRequest: MessageTypeDefinition<_gateway_accounting_v1_CreateTeamRequest, _gateway_accounting_v1_CreateTeamRequest__Output>
        CreateTeamResponse: MessageTypeDefinition<_gateway_accounting_v1_CreateTeamResponse, _gateway_accounting_v1_CreateTeamResponse__Output>
        DailySpend: MessageTypeDefinition<_gateway_accounting_v1_DailySpend, _gateway_accounting_v1_DailySpend__Output>
        DeleteStoredResponseRequest: MessageTypeDefinition<_gateway_accounting_v1_DeleteStoredResponseRequest, _gateway_accounting_v1_DeleteStoredResponseRequest__Output>
        DeleteStoredResponseResponse: MessageTypeDefinition<_gateway_accounting_v1_DeleteStoredResponseResponse, _gateway_accounting_v1_DeleteStoredResponseResponse__Output>
        DeleteTeamRequest: MessageTypeDefinition<_gateway_accounting_v1_DeleteTeamRequest, _gateway_accounting_v1_DeleteTeamRequest__Output>
        DeleteTeamResponse: MessageTypeDefinition<_gateway_accounting_v1_DeleteTeamResponse, _gateway_accounting_v1_DeleteTeamResponse__Output>
        GetDailySpendRequest: MessageTypeDefinition<_gateway_accounting_v1_GetDailySpendRequest, _gateway_accounting_v1_GetDailySpendRequest__Output>
        GetDailySpendResponse: MessageTypeDefinition<_gateway_accounting_v1_GetDailySpendResponse, _gateway_accounting_v1_GetDailySpendResponse__Output>
        GetKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_GetKeyRequest, _gateway_accounting_v1_GetKeyRequest__Output>
        GetKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_GetKeyResponse, _gateway_accounting_v1_GetKeyResponse__Output>
        GetStoredResponseRequest: MessageTypeDefinition<_gateway_accounting_v1_GetStoredResponseRequest, _gateway_accounting_v1_GetStoredResponseRequest__Output>
        GetStoredResponseResponse: MessageTypeDefinition<_gateway_accounting_v1_GetStoredResponseResponse, _gateway_accounting_v1_GetStoredResponseResponse__Output>
        GetTeamRequest: MessageTypeDefinition<_gateway_accounting_v1_GetTeamRequest, _gateway_accounting_v1_GetTeamRequest__Output>
        GetTeamResponse: MessageTypeDefinition<_gateway_accounting_v1_GetTeamResponse, _gateway_accounting_v1_GetTeamResponse__Output>
        GetTopSpendersRequest: MessageTypeDefinition<_gateway_accounting_v1_GetTopSpendersRequest, _gateway_accounting_v1_GetTopSpendersRequest__Output>
        GetTopSpendersResponse: MessageTypeDefinition<_gateway_accounting_v1_GetTopSpendersResponse, _gateway_accounting_v1_GetTopSpendersResponse__Output>
        GetUsageRequest: MessageTypeDefinition<_gateway_accounting_v1_GetUsageRequest, _gateway_accounting_v1_GetUsageRequest__Output>
        GetUsageResponse: MessageTypeDefinition<_gateway_accounting_v1_GetUsageResponse, _gateway_accounting_v1_GetUsageResponse__Output>
        GroupUsage: MessageTypeDefinition<_gateway_accounting_v1_GroupUsage, _gateway_accounting_v1_GroupUsage__Output>
        Key: MessageTypeDefinition<_gateway_accounting_v1_Key, _gateway_accounting_v1_Key__Output>
        KeyPatch: MessageTypeDefinition<_gateway_accounting_v1_KeyPatch, _gateway_accounting_v1_KeyPatch__Output>
        LeaseBudgetRequest: MessageTypeDefinition<_gateway_accounting_v1_LeaseBudgetRequest, _gateway_accounting_v1_LeaseBudgetRequest__Output>
        LeaseBudgetResponse: MessageTypeDefinition<_gateway_accounting_v1_LeaseBudgetResponse, _gateway_accounting_v1_LeaseBudgetResponse__Output>
        ListAuditEventsRequest: MessageTypeDefinition<_gateway_accounting_v1_ListAuditEventsRequest, _gateway_accounting_v1_ListAuditEventsRequest__Output>
        ListAuditEventsResponse: MessageTypeDefinition<_gateway_accounting_v1_ListAuditEventsResponse, _gateway_accounting_v1_ListAuditEventsResponse__Output>
        ListKeysRequest: MessageTypeDefinition<_gateway_accounting_v1_ListKeysRequest, _gateway_accounting_v1_ListKeysRequest__Output>
        ListKeysResponse: MessageTypeDefinition<_gateway_accounting_v1_ListKeysResponse, _gateway_accounting_v1_ListKeysResponse__Output>
        ListSpendLogsRequest: MessageTypeDefinition<_gateway_accounting_v1_ListSpendLogsRequest, _gateway_accounting_v1_ListSpendLogsRequest__Output>
        ListSpendLogsResponse: MessageTypeDefinition<_gateway_accounting_v1_ListSpendLogsResponse, _gateway_accounting_v1_ListSpendLogsResponse__Output>
        ListTeamsRequest: MessageTypeDefinition<_gateway_accounting_v1_ListTeamsRequest, _gateway_accounting_v1_ListTeamsRequest__Output>
        ListTeamsResponse: MessageTypeDefinition<_gateway_accounting_v1_ListTeamsResponse, _gateway_accounting_v1_ListTeamsResponse__Output>
        PutStoredResponseRequest: MessageTypeDefinition<_gateway_accounting_v1_PutStoredResponseRequest, _gateway_accounting_v1_PutStoredResponseRequest__Output>
        PutStoredResponseResponse: MessageTypeDefinition<_gateway_accounting_v1_PutStoredResponseResponse, _gateway_accounting_v1_PutStoredResponseResponse__Output>
        ReleaseReservationRequest: MessageTypeDefinition<_gateway_accounting_v1_ReleaseReservationRequest, _gateway_accounting_v1_ReleaseReservationRequest__Output>
        ReleaseReservationResponse: MessageTypeDefinition<_gateway_accounting_v1_ReleaseReservationResponse, _gateway_accounting_v1_ReleaseReservationResponse__Output>
        ReserveBudgetRequest: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetRequest, _gateway_accounting_v1_ReserveBudgetRequest__Output>
        ReserveBudgetResponse: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetResponse, _gateway_accounting_v1_ReserveBudgetResponse__Output>
        ReserveBudgetResult: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetResult, _gateway_accounting_v1_ReserveBudgetResult__Output>
        ReserveBudgetsRequest: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetsRequest, _gateway_accounting_v1_ReserveBudgetsRequest__Output>
        ReserveBudgetsResponse: MessageTypeDefinition<_gateway_accounting_v1_ReserveBudgetsResponse, _gateway_accounting_v1_ReserveBudgetsResponse__Output>
        RevokeKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_RevokeKeyRequest, _gateway_accounting_v1_RevokeKeyRequest__Output>
        RevokeKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_RevokeKeyResponse, _gateway_accounting_v1_RevokeKeyResponse__Output>
        RotateKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_RotateKeyRequest, _gateway_accounting_v1_RotateKeyRequest__Output>
        RotateKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_RotateKeyResponse, _gateway_accounting_v1_RotateKeyResponse__Output>
        SpendLogEntry: MessageTypeDefinition<_gateway_accounting_v1_SpendLogEntry, _gateway_accounting_v1_SpendLogEntry__Output>
        SpenderKind: EnumTypeDefinition
        StoredResponse: MessageTypeDefinition<_gateway_accounting_v1_StoredResponse, _gateway_accounting_v1_StoredResponse__Output>
        Team: MessageTypeDefinition<_gateway_accounting_v1_Team, _gateway_accounting_v1_Team__Output>
        TeamFields: MessageTypeDefinition<_gateway_accounting_v1_TeamFields, _gateway_accounting_v1_TeamFields__Output>
        TopSpender: MessageTypeDefinition<_gateway_accounting_v1_TopSpender, _gateway_accounting_v1_TopSpender__Output>
        UpdateKeyRequest: MessageTypeDefinition<_gateway_accounting_v1_UpdateKeyRequest, _gateway_accounting_v1_UpdateKeyRequest__Output>
        UpdateKeyResponse: MessageTypeDefinition<_gateway_accounting_v1_UpdateKeyResponse, _gateway_accounting_v1_UpdateKeyResponse__Output>
        UpdateTeamRequest: MessageTypeDefinition<_gateway_accounting_v1_UpdateTeamRequest, _gateway_accounting_v1_UpdateTeamRequest__Output>
        UpdateTeamResponse: MessageTypeDefinition<_gateway_accounting_v1_UpdateTeamResponse, _gateway_accounting_v1_UpdateTeamResponse__Output>
      }
    }
  }
}

