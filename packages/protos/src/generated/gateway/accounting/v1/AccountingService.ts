// Original file: proto/gateway/accounting/v1/accounting.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthenticateKeyRequest as _gateway_accounting_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _gateway_accounting_v1_AuthenticateKeyRequest__Output } from '../../../gateway/accounting/v1/AuthenticateKeyRequest.js';
import type { AuthenticateKeyResponse as _gateway_accounting_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _gateway_accounting_v1_AuthenticateKeyResponse__Output } from '../../../gateway/accounting/v1/AuthenticateKeyResponse.js';
import type { CreateKeyRequest as _gateway_accounting_v1_CreateKeyRequest, CreateKeyRequest__Output as _gateway_accounting_v1_CreateKeyRequest__Output } from '../../../gateway/accounting/v1/CreateKeyRequest.js';
import type { CreateKeyResponse as _gateway_accounting_v1_CreateKeyResponse, CreateKeyResponse__Output as _gateway_accounting_v1_CreateKeyResponse__Output } from '../../../gateway/accounting/v1/CreateKeyResponse.js';
import type { CreateTeamRequest as _gateway_accounting_v1_CreateTeamRequest, CreateTeamRequest__Output as _gateway_accounting_v1_CreateTeamRequest__Output } from '../../../gateway/accounting/v1/CreateTeamRequest.js';
import type { CreateTeamResponse as _gateway_accounting_v1_CreateTeamResponse, CreateTeamResponse__Output as _gateway_accounting_v1_CreateTeamResponse__Output } from '../../../gateway/accounting/v1/CreateTeamResponse.js';
import type { DeleteStoredResponseRequest as _gateway_accounting_v1_DeleteStoredResponseRequest, DeleteStoredResponseRequest__Output as _gateway_accounting_v1_DeleteStoredResponseRequest__Output } from '../../../gateway/accounting/v1/DeleteStoredResponseRequest.js';
import type { DeleteStoredResponseResponse as _gateway_accounting_v1_DeleteStoredResponseResponse, DeleteStoredResponseResponse__Output as _gateway_accounting_v1_DeleteStoredResponseResponse__Output } from '../../../gateway/accounting/v1/DeleteStoredResponseResponse.js';
import type { DeleteTeamRequest as _gateway_accounting_v1_DeleteTeamRequest, DeleteTeamRequest__Output as _gateway_accounting_v1_DeleteTeamRequest__Output } from '../../../gateway/accounting/v1/DeleteTeamRequest.js';
import type { DeleteTeamResponse as _gateway_accounting_v1_DeleteTeamResponse, DeleteTeamResponse__Output as _gateway_accounting_v1_DeleteTeamResponse__Output } from '../../../gateway/accounting/v1/DeleteTeamResponse.js';
import type { GetDailySpendRequest as _gateway_accounting_v1_GetDailySpendRequest, GetDailySpendRequest__Output as _gateway_accounting_v1_GetDailySpendRequest__Output } from '../../../gateway/accounting/v1/GetDailySpendRequest.js';
import type { GetDailySpendResponse as _gateway_accounting_v1_GetDailySpendResponse, GetDailySpendResponse__Output as _gateway_accounting_v1_GetDailySpendResponse__Output } from '../../../gateway/accounting/v1/GetDailySpendResponse.js';
import type { GetKeyRequest as _gateway_accounting_v1_GetKeyRequest, GetKeyRequest__Output as _gateway_accounting_v1_GetKeyRequest__Output } from '../../../gateway/accounting/v1/GetKeyRequest.js';
import type { GetKeyResponse as _gateway_accounting_v1_GetKeyResponse, GetKeyResponse__Output as _gateway_accounting_v1_GetKeyResponse__Output } from '../../../gateway/accounting/v1/GetKeyResponse.js';
import type { GetStoredResponseRequest as _gateway_accounting_v1_GetStoredResponseRequest, GetStoredResponseRequest__Output as _gateway_accounting_v1_GetStoredResponseRequest__Output } from '../../../gateway/accounting/v1/GetStoredResponseRequest.js';
import type { GetStoredResponseResponse as _gateway_accounting_v1_GetStoredResponseResponse, GetStoredResponseResponse__Output as _gateway_accounting_v1_GetStoredResponseResponse__Output } from '../../../gateway/accounting/v1/GetStoredResponseResponse.js';
import type { GetTeamRequest as _gateway_accounting_v1_GetTeamRequest, GetTeamRequest__Output as _gateway_accounting_v1_GetTeamRequest__Output } from '../../../gateway/accounting/v1/GetTeamRequest.js';
import type { GetTeamResponse as _gateway_accounting_v1_GetTeamResponse, GetTeamResponse__Output as _gateway_accounting_v1_GetTeamResponse__Output } from '../../../gateway/accounting/v1/GetTeamResponse.js';
import type { GetTopSpendersRequest as _gateway_accounting_v1_GetTopSpendersRequest, GetTopSpendersRequest__Output as _gateway_accounting_v1_GetTopSpendersRequest__Output } from '../../../gateway/accounting/v1/GetTopSpendersRequest.js';
import type { GetTopSpendersResponse as _gateway_accounting_v1_GetTopSpendersResponse, GetTopSpendersResponse__Output as _gateway_accounting_v1_GetTopSpendersResponse__Output } from '../../../gateway/accounting/v1/GetTopSpendersResponse.js';
import type { GetUsageRequest as _gateway_accounting_v1_GetUsageRequest, GetUsageRequest__Output as _gateway_accounting_v1_GetUsageRequest__Output } from '../../../gateway/accounting/v1/GetUsageRequest.js';
import type { GetUsageResponse as _gateway_accounting_v1_GetUsageResponse, GetUsageResponse__Output as _gateway_accounting_v1_GetUsageResponse__Output } from '../../../gateway/accounting/v1/GetUsageResponse.js';
import type { LeaseBudgetRequest as _gateway_accounting_v1_LeaseBudgetRequest, LeaseBudgetRequest__Output as _gateway_accounting_v1_LeaseBudgetRequest__Output } from '../../../gateway/accounting/v1/LeaseBudgetRequest.js';
import type { LeaseBudgetResponse as _gateway_accounting_v1_LeaseBudgetResponse, LeaseBudgetResponse__Output as _gateway_accounting_v1_LeaseBudgetResponse__Output } from '../../../gateway/accounting/v1/LeaseBudgetResponse.js';
import type { ListAuditEventsRequest as _gateway_accounting_v1_ListAuditEventsRequest, ListAuditEventsRequest__Output as _gateway_accounting_v1_ListAuditEventsRequest__Output } from '../../../gateway/accounting/v1/ListAuditEventsRequest.js';
import type { ListAuditEventsResponse as _gateway_accounting_v1_ListAuditEventsResponse, ListAuditEventsResponse__Output as _gateway_accounting_v1_ListAuditEventsResponse__Output } from '../../../gateway/accounting/v1/ListAuditEventsResponse.js';
import type { ListKeysRequest as _gateway_accounting_v1_ListKeysRequest, ListKeysRequest__Output as _gateway_accounting_v1_ListKeysRequest__Output } from '../../../gateway/accounting/v1/ListKeysRequest.js';
import type { ListKeysResponse as _gateway_accounting_v1_ListKeysResponse, ListKeysResponse__Output as _gateway_accounting_v1_ListKeysResponse__Output } from '../../../gateway/accounting/v1/ListKeysResponse.js';
import type { ListSpendLogsRequest as _gateway_accounting_v1_ListSpendLogsRequest, ListSpendLogsRequest__Output as _gateway_accounting_v1_ListSpendLogsRequest__Output } from '../../../gateway/accounting/v1/ListSpendLogsRequest.js';
import type { ListSpendLogsResponse as _gateway_accounting_v1_ListSpendLogsResponse, ListSpendLogsResponse__Output as _gateway_accounting_v1_ListSpendLogsResponse__Output } from '../../../gateway/accounting/v1/ListSpendLogsResponse.js';
import type { ListTeamsRequest as _gateway_accounting_v1_ListTeamsRequest, ListTeamsRequest__Output as _gateway_accounting_v1_ListTeamsRequest__Output } from '../../../gateway/accounting/v1/ListTeamsRequest.js';
import type { ListTeamsResponse as _gateway_accounting_v1_ListTeamsResponse, ListTeamsResponse__Output as _gateway_accounting_v1_ListTeamsResponse__Output } from '../../../gateway/accounting/v1/ListTeamsResponse.js';
import type { PutStoredResponseRequest as _gateway_accounting_v1_PutStoredResponseRequest, PutStoredResponseRequest__Output as _gateway_accounting_v1_PutStoredResponseRequest__Output } from '../../../gateway/accounting/v1/PutStoredResponseRequest.js';
import type { PutStoredResponseResponse as _gateway_accounting_v1_PutStoredResponseResponse, PutStoredResponseResponse__Output as _gateway_accounting_v1_PutStoredResponseResponse__Output } from '../../../gateway/accounting/v1/PutStoredResponseResponse.js';
import type { ReleaseReservationRequest as _gateway_accounting_v1_ReleaseReservationRequest, ReleaseReservationRequest__Output as _gateway_accounting_v1_ReleaseReservationRequest__Output } from '../../../gateway/accounting/v1/ReleaseReservationRequest.js';
import type { ReleaseReservationResponse as _gateway_accounting_v1_ReleaseReservationResponse, ReleaseReservationResponse__Output as _gateway_accounting_v1_ReleaseReservationResponse__Output } from '../../../gateway/accounting/v1/ReleaseReservationResponse.js';
import type { ReserveBudgetRequest as _gateway_accounting_v1_ReserveBudgetRequest, ReserveBudgetRequest__Output as _gateway_accounting_v1_ReserveBudgetRequest__Output } from '../../../gateway/accounting/v1/ReserveBudgetRequest.js';
import type { ReserveBudgetResponse as _gateway_accounting_v1_ReserveBudgetResponse, ReserveBudgetResponse__Output as _gateway_accounting_v1_ReserveBudgetResponse__Output } from '../../../gateway/accounting/v1/ReserveBudgetResponse.js';
import type { ReserveBudgetsRequest as _gateway_accounting_v1_ReserveBudgetsRequest, ReserveBudgetsRequest__Output as _gateway_accounting_v1_ReserveBudgetsRequest__Output } from '../../../gateway/accounting/v1/ReserveBudgetsRequest.js';
import type { ReserveBudgetsResponse as _gateway_accounting_v1_ReserveBudgetsResponse, ReserveBudgetsResponse__Output as _gateway_accounting_v1_ReserveBudgetsResponse__Output } from '../../../gateway/accounting/v1/ReserveBudgetsResponse.js';
import type { RevokeKeyRequest as _gateway_accounting_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _gateway_accounting_v1_RevokeKeyRequest__Output } from '../../../gateway/accounting/v1/RevokeKeyRequest.js';
import type { RevokeKeyResponse as _gateway_accounting_v1_RevokeKeyResponse, RevokeKeyResponse__Output as _gateway_accounting_v1_RevokeKeyResponse__Output } from '../../../gateway/accounting/v1/RevokeKeyResponse.js';
import type { RotateKeyRequest as _gateway_accounting_v1_RotateKeyRequest, RotateKeyRequest__Output as _gateway_accounting_v1_RotateKeyRequest__Output } from '../../../gateway/accounting/v1/RotateKeyRequest.js';
import type { RotateKeyResponse as _gateway_accounting_v1_RotateKeyResponse, RotateKeyResponse__Output as _gateway_accounting_v1_RotateKeyResponse__Output } from '../../../gateway/accounting/v1/RotateKeyResponse.js';
import type { UpdateKeyRequest as _gateway_accounting_v1_UpdateKeyRequest, UpdateKeyRequest__Output as _gateway_accounting_v1_UpdateKeyRequest__Output } from '../../../gateway/accounting/v1/UpdateKeyRequest.js';
import type { UpdateKeyResponse as _gateway_accounting_v1_UpdateKeyResponse, UpdateKeyResponse__Output as _gateway_accounting_v1_UpdateKeyResponse__Output } from '../../../gateway/accounting/v1/UpdateKeyResponse.js';
import type { UpdateTeamRequest as _gateway_accounting_v1_UpdateTeamRequest, UpdateTeamRequest__Output as _gateway_accounting_v1_UpdateTeamRequest__Output } from '../../../gateway/accounting/v1/UpdateTeamRequest.js';
import type { UpdateTeamResponse as _gateway_accounting_v1_UpdateTeamResponse, UpdateTeamResponse__Output as _gateway_accounting_v1_UpdateTeamResponse__Output } from '../../../gateway/accounting/v1/UpdateTeamResponse.js';

/**
 * Keys, model access, budgets and spend.
 */
export interface AccountingServiceClient extends grpc.Client {
  /**
   * Looks a key up by the SHA-256 of its secret: the secret itself never leaves the edge.
   */
  AuthenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Looks a key up by the SHA-256 of its secret: the secret itself never leaves the edge.
   */
  authenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_accounting_v1_AuthenticateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a key; the response carries its secret, which is never stored or shown again.
   */
  CreateKey(argument: _gateway_accounting_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _gateway_accounting_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _gateway_accounting_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _gateway_accounting_v1_CreateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a key; the response carries its secret, which is never stored or shown again.
   */
  createKey(argument: _gateway_accounting_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_accounting_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_accounting_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_accounting_v1_CreateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Teams: keys that share models, a budget and rate limits on top of their own.
   */
  CreateTeam(argument: _gateway_accounting_v1_CreateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  CreateTeam(argument: _gateway_accounting_v1_CreateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  CreateTeam(argument: _gateway_accounting_v1_CreateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  CreateTeam(argument: _gateway_accounting_v1_CreateTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Teams: keys that share models, a budget and rate limits on top of their own.
   */
  createTeam(argument: _gateway_accounting_v1_CreateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _gateway_accounting_v1_CreateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _gateway_accounting_v1_CreateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _gateway_accounting_v1_CreateTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_CreateTeamResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * NOT_FOUND when absent, expired or another key's.
   */
  DeleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  DeleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  DeleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  DeleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * NOT_FOUND when absent, expired or another key's.
   */
  deleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  deleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  deleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  deleteStoredResponse(argument: _gateway_accounting_v1_DeleteStoredResponseRequest, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * FAILED_PRECONDITION (team_not_empty) while keys that are not revoked belong to it.
   */
  DeleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  DeleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  DeleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  DeleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  /**
   * FAILED_PRECONDITION (team_not_empty) while keys that are not revoked belong to it.
   */
  deleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _gateway_accounting_v1_DeleteTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_DeleteTeamResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Spend and requests per UTC day and group.
   */
  GetDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  GetDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  GetDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  GetDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Spend and requests per UTC day and group.
   */
  getDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  getDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  getDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  getDailySpend(argument: _gateway_accounting_v1_GetDailySpendRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetDailySpendResponse__Output>): grpc.ClientUnaryCall;
  
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  
  GetStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  GetStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  GetStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  GetStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  getStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  getStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  getStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  getStoredResponse(argument: _gateway_accounting_v1_GetStoredResponseRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  
  GetTeam(argument: _gateway_accounting_v1_GetTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  GetTeam(argument: _gateway_accounting_v1_GetTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  GetTeam(argument: _gateway_accounting_v1_GetTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  GetTeam(argument: _gateway_accounting_v1_GetTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _gateway_accounting_v1_GetTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _gateway_accounting_v1_GetTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _gateway_accounting_v1_GetTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _gateway_accounting_v1_GetTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetTeamResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The keys or teams that spent most between two days, highest first.
   */
  GetTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  GetTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  GetTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  GetTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The keys or teams that spent most between two days, highest first.
   */
  getTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  getTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  getTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  getTopSpenders(argument: _gateway_accounting_v1_GetTopSpendersRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetTopSpendersResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Budget, spend and access of one key.
   */
  GetUsage(argument: _gateway_accounting_v1_GetUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _gateway_accounting_v1_GetUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _gateway_accounting_v1_GetUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _gateway_accounting_v1_GetUsageRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Budget, spend and access of one key.
   */
  getUsage(argument: _gateway_accounting_v1_GetUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_accounting_v1_GetUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_accounting_v1_GetUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_accounting_v1_GetUsageRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetUsageResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Holds a slice of the key's budget (a lease) that one caller draws its calls from without a
   * round trip each. A spend event naming the lease and the part its call drew settles that part;
   * ReleaseReservation with an amount gives back what was not drawn. Keys with rate limits get
   * per_call (nothing held): each of their calls must be counted here.
   */
  LeaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  LeaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  LeaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  LeaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Holds a slice of the key's budget (a lease) that one caller draws its calls from without a
   * round trip each. A spend event naming the lease and the part its call drew settles that part;
   * ReleaseReservation with an amount gives back what was not drawn. Keys with rate limits get
   * per_call (nothing held): each of their calls must be counted here.
   */
  leaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  leaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  leaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  leaseBudget(argument: _gateway_accounting_v1_LeaseBudgetRequest, callback: grpc.requestCallback<_gateway_accounting_v1_LeaseBudgetResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Admin changes, newest first.
   */
  ListAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Admin changes, newest first.
   */
  listAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  listAuditEvents(argument: _gateway_accounting_v1_ListAuditEventsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListAuditEventsResponse__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Billed calls and jobs, newest first, a page at a time.
   */
  ListSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  ListSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  ListSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  ListSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Billed calls and jobs, newest first, a page at a time.
   */
  listSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  listSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  listSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  listSpendLogs(argument: _gateway_accounting_v1_ListSpendLogsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListSpendLogsResponse__Output>): grpc.ClientUnaryCall;
  
  ListTeams(argument: _gateway_accounting_v1_ListTeamsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  ListTeams(argument: _gateway_accounting_v1_ListTeamsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  ListTeams(argument: _gateway_accounting_v1_ListTeamsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  ListTeams(argument: _gateway_accounting_v1_ListTeamsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _gateway_accounting_v1_ListTeamsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _gateway_accounting_v1_ListTeamsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _gateway_accounting_v1_ListTeamsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _gateway_accounting_v1_ListTeamsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Stored responses (the Responses API's `store`): kept per key for the store's retention, so
   * any chat replica continues any conversation. Another key's response is NOT_FOUND.
   */
  PutStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  PutStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  PutStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  PutStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Stored responses (the Responses API's `store`): kept per key for the store's retention, so
   * any chat replica continues any conversation. Another key's response is NOT_FOUND.
   */
  putStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  putStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  putStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  putStoredResponse(argument: _gateway_accounting_v1_PutStoredResponseRequest, callback: grpc.requestCallback<_gateway_accounting_v1_PutStoredResponseResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Gives a reservation back (the call failed and costs nothing). Idempotent.
   */
  ReleaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  ReleaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  ReleaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  ReleaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Gives a reservation back (the call failed and costs nothing). Idempotent.
   */
  releaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  releaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  releaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  releaseReservation(argument: _gateway_accounting_v1_ReleaseReservationRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ReleaseReservationResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Counts a request against the key's rate limit and holds its worst-case price, atomically:
   * FAILED_PRECONDITION (budget_exceeded) or RESOURCE_EXHAUSTED (rate_limit_exceeded) otherwise.
   * The spend event naming the reservation settles it to the real cost.
   */
  ReserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  ReserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  ReserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  ReserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Counts a request against the key's rate limit and holds its worst-case price, atomically:
   * FAILED_PRECONDITION (budget_exceeded) or RESOURCE_EXHAUSTED (rate_limit_exceeded) otherwise.
   * The spend event naming the reservation settles it to the real cost.
   */
  reserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  reserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  reserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  reserveBudget(argument: _gateway_accounting_v1_ReserveBudgetRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Several ReserveBudget calls in one round trip (a busy caller's pending holds travel together),
   * each with its own outcome.
   */
  ReserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ReserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ReserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ReserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Several ReserveBudget calls in one round trip (a busy caller's pending holds travel together),
   * each with its own outcome.
   */
  reserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  reserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  reserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  reserveBudgets(argument: _gateway_accounting_v1_ReserveBudgetsRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ReserveBudgetsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Revoking is permanent and idempotent.
   */
  RevokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Revoking is permanent and idempotent.
   */
  revokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_accounting_v1_RevokeKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Gives the key a new secret (returned once); the old one works until the grace ends.
   */
  RotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  RotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  RotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  RotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Gives the key a new secret (returned once); the old one works until the grace ends.
   */
  rotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _gateway_accounting_v1_RotateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_RotateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Changes the fields named in update_mask. Revoked keys cannot change (FAILED_PRECONDITION,
   * key_revoked).
   */
  UpdateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  UpdateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  UpdateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  UpdateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Changes the fields named in update_mask. Revoked keys cannot change (FAILED_PRECONDITION,
   * key_revoked).
   */
  updateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  updateKey(argument: _gateway_accounting_v1_UpdateKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  UpdateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  UpdateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  UpdateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _gateway_accounting_v1_UpdateTeamRequest, callback: grpc.requestCallback<_gateway_accounting_v1_UpdateTeamResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Keys, model access, budgets and spend.
 */
export interface AccountingServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Looks a key up by the SHA-256 of its secret: the secret itself never leaves the edge.
   */
  AuthenticateKey: grpc.handleUnaryCall<_gateway_accounting_v1_AuthenticateKeyRequest__Output, _gateway_accounting_v1_AuthenticateKeyResponse>;
  
  /**
   * Creates a key; the response carries its secret, which is never stored or shown again.
   */
  CreateKey: grpc.handleUnaryCall<_gateway_accounting_v1_CreateKeyRequest__Output, _gateway_accounting_v1_CreateKeyResponse>;
  
  /**
   * Teams: keys that share models, a budget and rate limits on top of their own.
   */
  CreateTeam: grpc.handleUnaryCall<_gateway_accounting_v1_CreateTeamRequest__Output, _gateway_accounting_v1_CreateTeamResponse>;
  
  /**
   * NOT_FOUND when absent, expired or another key's.
   */
  DeleteStoredResponse: grpc.handleUnaryCall<_gateway_accounting_v1_DeleteStoredResponseRequest__Output, _gateway_accounting_v1_DeleteStoredResponseResponse>;
  
  /**
   * FAILED_PRECONDITION (team_not_empty) while keys that are not revoked belong to it.
   */
  DeleteTeam: grpc.handleUnaryCall<_gateway_accounting_v1_DeleteTeamRequest__Output, _gateway_accounting_v1_DeleteTeamResponse>;
  
  /**
   * Spend and requests per UTC day and group.
   */
  GetDailySpend: grpc.handleUnaryCall<_gateway_accounting_v1_GetDailySpendRequest__Output, _gateway_accounting_v1_GetDailySpendResponse>;
  
  GetKey: grpc.handleUnaryCall<_gateway_accounting_v1_GetKeyRequest__Output, _gateway_accounting_v1_GetKeyResponse>;
  
  GetStoredResponse: grpc.handleUnaryCall<_gateway_accounting_v1_GetStoredResponseRequest__Output, _gateway_accounting_v1_GetStoredResponseResponse>;
  
  GetTeam: grpc.handleUnaryCall<_gateway_accounting_v1_GetTeamRequest__Output, _gateway_accounting_v1_GetTeamResponse>;
  
  /**
   * The keys or teams that spent most between two days, highest first.
   */
  GetTopSpenders: grpc.handleUnaryCall<_gateway_accounting_v1_GetTopSpendersRequest__Output, _gateway_accounting_v1_GetTopSpendersResponse>;
  
  /**
   * Budget, spend and access of one key.
   */
  GetUsage: grpc.handleUnaryCall<_gateway_accounting_v1_GetUsageRequest__Output, _gateway_accounting_v1_GetUsageResponse>;
  
  /**
   * Holds a slice of the key's budget (a lease) that one caller draws its calls from without a
   * round trip each. A spend event naming the lease and the part its call drew settles that part;
   * ReleaseReservation with an amount gives back what was not drawn. Keys with rate limits get
   * per_call (nothing held): each of their calls must be counted here.
   */
  LeaseBudget: grpc.handleUnaryCall<_gateway_accounting_v1_LeaseBudgetRequest__Output, _gateway_accounting_v1_LeaseBudgetResponse>;
  
  /**
   * Admin changes, newest first.
   */
  ListAuditEvents: grpc.handleUnaryCall<_gateway_accounting_v1_ListAuditEventsRequest__Output, _gateway_accounting_v1_ListAuditEventsResponse>;
  
  ListKeys: grpc.handleUnaryCall<_gateway_accounting_v1_ListKeysRequest__Output, _gateway_accounting_v1_ListKeysResponse>;
  
  /**
   * Billed calls and jobs, newest first, a page at a time.
   */
  ListSpendLogs: grpc.handleUnaryCall<_gateway_accounting_v1_ListSpendLogsRequest__Output, _gateway_accounting_v1_ListSpendLogsResponse>;
  
  ListTeams: grpc.handleUnaryCall<_gateway_accounting_v1_ListTeamsRequest__Output, _gateway_accounting_v1_ListTeamsResponse>;
  
  /**
   * Stored responses (the Responses API's `store`): kept per key for the store's retention, so
   * any chat replica continues any conversation. Another key's response is NOT_FOUND.
   */
  PutStoredResponse: grpc.handleUnaryCall<_gateway_accounting_v1_PutStoredResponseRequest__Output, _gateway_accounting_v1_PutStoredResponseResponse>;
  
  /**
   * Gives a reservation back (the call failed and costs nothing). Idempotent.
   */
  ReleaseReservation: grpc.handleUnaryCall<_gateway_accounting_v1_ReleaseReservationRequest__Output, _gateway_accounting_v1_ReleaseReservationResponse>;
  
  /**
   * Counts a request against the key's rate limit and holds its worst-case price, atomically:
   * FAILED_PRECONDITION (budget_exceeded) or RESOURCE_EXHAUSTED (rate_limit_exceeded) otherwise.
   * The spend event naming the reservation settles it to the real cost.
   */
  ReserveBudget: grpc.handleUnaryCall<_gateway_accounting_v1_ReserveBudgetRequest__Output, _gateway_accounting_v1_ReserveBudgetResponse>;
  
  /**
   * Several ReserveBudget calls in one round trip (a busy caller's pending holds travel together),
   * each with its own outcome.
   */
  ReserveBudgets: grpc.handleUnaryCall<_gateway_accounting_v1_ReserveBudgetsRequest__Output, _gateway_accounting_v1_ReserveBudgetsResponse>;
  
  /**
   * Revoking is permanent and idempotent.
   */
  RevokeKey: grpc.handleUnaryCall<_gateway_accounting_v1_RevokeKeyRequest__Output, _gateway_accounting_v1_RevokeKeyResponse>;
  
  /**
   * Gives the key a new secret (returned once); the old one works until the grace ends.
   */
  RotateKey: grpc.handleUnaryCall<_gateway_accounting_v1_RotateKeyRequest__Output, _gateway_accounting_v1_RotateKeyResponse>;
  
  /**
   * Changes the fields named in update_mask. Revoked keys cannot change (FAILED_PRECONDITION,
   * key_revoked).
   */
  UpdateKey: grpc.handleUnaryCall<_gateway_accounting_v1_UpdateKeyRequest__Output, _gateway_accounting_v1_UpdateKeyResponse>;
  
  UpdateTeam: grpc.handleUnaryCall<_gateway_accounting_v1_UpdateTeamRequest__Output, _gateway_accounting_v1_UpdateTeamResponse>;
  
}

export interface AccountingServiceDefinition extends grpc.ServiceDefinition {
  AuthenticateKey: MethodDefinition<_gateway_accounting_v1_AuthenticateKeyRequest, _gateway_accounting_v1_AuthenticateKeyResponse, _gateway_accounting_v1_AuthenticateKeyRequest__Output, _gateway_accounting_v1_AuthenticateKeyResponse__Output>
  CreateKey: MethodDefinition<_gateway_accounting_v1_CreateKeyRequest, _gateway_accounting_v1_CreateKeyResponse, _gateway_accounting_v1_CreateKeyRequest__Output, _gateway_accounting_v1_CreateKeyResponse__Output>
  CreateTeam: MethodDefinition<_gateway_accounting_v1_CreateTeamRequest, _gateway_accounting_v1_CreateTeamResponse, _gateway_accounting_v1_CreateTeamRequest__Output, _gateway_accounting_v1_CreateTeamResponse__Output>
  DeleteStoredResponse: MethodDefinition<_gateway_accounting_v1_DeleteStoredResponseRequest, _gateway_accounting_v1_DeleteStoredResponseResponse, _gateway_accounting_v1_DeleteStoredResponseRequest__Output, _gateway_accounting_v1_DeleteStoredResponseResponse__Output>
  DeleteTeam: MethodDefinition<_gateway_accounting_v1_DeleteTeamRequest, _gateway_accounting_v1_DeleteTeamResponse, _gateway_accounting_v1_DeleteTeamRequest__Output, _gateway_accounting_v1_DeleteTeamResponse__Output>
  GetDailySpend: MethodDefinition<_gateway_accounting_v1_GetDailySpendRequest, _gateway_accounting_v1_GetDailySpendResponse, _gateway_accounting_v1_GetDailySpendRequest__Output, _gateway_accounting_v1_GetDailySpendResponse__Output>
  GetKey: MethodDefinition<_gateway_accounting_v1_GetKeyRequest, _gateway_accounting_v1_GetKeyResponse, _gateway_accounting_v1_GetKeyRequest__Output, _gateway_accounting_v1_GetKeyResponse__Output>
  GetStoredResponse: MethodDefinition<_gateway_accounting_v1_GetStoredResponseRequest, _gateway_accounting_v1_GetStoredResponseResponse, _gateway_accounting_v1_GetStoredResponseRequest__Output, _gateway_accounting_v1_GetStoredResponseResponse__Output>
  GetTeam: MethodDefinition<_gateway_accounting_v1_GetTeamRequest, _gateway_accounting_v1_GetTeamResponse, _gateway_accounting_v1_GetTeamRequest__Output, _gateway_accounting_v1_GetTeamResponse__Output>
  GetTopSpenders: MethodDefinition<_gateway_accounting_v1_GetTopSpendersRequest, _gateway_accounting_v1_GetTopSpendersResponse, _gateway_accounting_v1_GetTopSpendersRequest__Output, _gateway_accounting_v1_GetTopSpendersResponse__Output>
  GetUsage: MethodDefinition<_gateway_accounting_v1_GetUsageRequest, _gateway_accounting_v1_GetUsageResponse, _gateway_accounting_v1_GetUsageRequest__Output, _gateway_accounting_v1_GetUsageResponse__Output>
  LeaseBudget: MethodDefinition<_gateway_accounting_v1_LeaseBudgetRequest, _gateway_accounting_v1_LeaseBudgetResponse, _gateway_accounting_v1_LeaseBudgetRequest__Output, _gateway_accounting_v1_LeaseBudgetResponse__Output>
  ListAuditEvents: MethodDefinition<_gateway_accounting_v1_ListAuditEventsRequest, _gateway_accounting_v1_ListAuditEventsResponse, _gateway_accounting_v1_ListAuditEventsRequest__Output, _gateway_accounting_v1_ListAuditEventsResponse__Output>
  ListKeys: MethodDefinition<_gateway_accounting_v1_ListKeysRequest, _gateway_accounting_v1_ListKeysResponse, _gateway_accounting_v1_ListKeysRequest__Output, _gateway_accounting_v1_ListKeysResponse__Output>
  ListSpendLogs: MethodDefinition<_gateway_accounting_v1_ListSpendLogsRequest, _gateway_accounting_v1_ListSpendLogsResponse, _gateway_accounting_v1_ListSpendLogsRequest__Output, _gateway_accounting_v1_ListSpendLogsResponse__Output>
  ListTeams: MethodDefinition<_gateway_accounting_v1_ListTeamsRequest, _gateway_accounting_v1_ListTeamsResponse, _gateway_accounting_v1_ListTeamsRequest__Output, _gateway_accounting_v1_ListTeamsResponse__Output>
  PutStoredResponse: MethodDefinition<_gateway_accounting_v1_PutStoredResponseRequest, _gateway_accounting_v1_PutStoredResponseResponse, _gateway_accounting_v1_PutStoredResponseRequest__Output, _gateway_accounting_v1_PutStoredResponseResponse__Output>
  ReleaseReservation: MethodDefinition<_gateway_accounting_v1_ReleaseReservationRequest, _gateway_accounting_v1_ReleaseReservationResponse, _gateway_accounting_v1_ReleaseReservationRequest__Output, _gateway_accounting_v1_ReleaseReservationResponse__Output>
  ReserveBudget: MethodDefinition<_gateway_accounting_v1_ReserveBudgetRequest, _gateway_accounting_v1_ReserveBudgetResponse, _gateway_accounting_v1_ReserveBudgetRequest__Output, _gateway_accounting_v1_ReserveBudgetResponse__Output>
  ReserveBudgets: MethodDefinition<_gateway_accounting_v1_ReserveBudgetsRequest, _gateway_accounting_v1_ReserveBudgetsResponse, _gateway_accounting_v1_ReserveBudgetsRequest__Output, _gateway_accounting_v1_ReserveBudgetsResponse__Output>
  RevokeKey: MethodDefinition<_gateway_accounting_v1_RevokeKeyRequest, _gateway_accounting_v1_RevokeKeyResponse, _gateway_accounting_v1_RevokeKeyRequest__Output, _gateway_accounting_v1_RevokeKeyResponse__Output>
  RotateKey: MethodDefinition<_gateway_accounting_v1_RotateKeyRequest, _gateway_accounting_v1_RotateKeyResponse, _gateway_accounting_v1_RotateKeyRequest__Output, _gateway_accounting_v1_RotateKeyResponse__Output>
  UpdateKey: MethodDefinition<_gateway_accounting_v1_UpdateKeyRequest, _gateway_accounting_v1_UpdateKeyResponse, _gateway_accounting_v1_UpdateKeyRequest__Output, _gateway_accounting_v1_UpdateKeyResponse__Output>
  UpdateTeam: MethodDefinition<_gateway_accounting_v1_UpdateTeamRequest, _gateway_accounting_v1_UpdateTeamResponse, _gateway_accounting_v1_UpdateTeamRequest__Output, _gateway_accounting_v1_UpdateTeamResponse__Output>
}
