// Original file: proto/gateway/accounting/v1/accounting.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthenticateKeyRequest as _gateway_accounting_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _gateway_accounting_v1_AuthenticateKeyRequest__Output } from '../../../gateway/accounting/v1/AuthenticateKeyRequest.js';
import type { AuthenticateKeyResponse as _gateway_accounting_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _gateway_accounting_v1_AuthenticateKeyResponse__Output } from '../../../gateway/accounting/v1/AuthenticateKeyResponse.js';
import type { CreateKeyRequest as _gateway_accounting_v1_CreateKeyRequest, CreateKeyRequest__Output as _gateway_accounting_v1_CreateKeyRequest__Output } from '../../../gateway/accounting/v1/CreateKeyRequest.js';
import type { CreateKeyResponse as _gateway_accounting_v1_CreateKeyResponse, CreateKeyResponse__Output as _gateway_accounting_v1_CreateKeyResponse__Output } from '../../../gateway/accounting/v1/CreateKeyResponse.js';
import type { GetKeyRequest as _gateway_accounting_v1_GetKeyRequest, GetKeyRequest__Output as _gateway_accounting_v1_GetKeyRequest__Output } from '../../../gateway/accounting/v1/GetKeyRequest.js';
import type { GetKeyResponse as _gateway_accounting_v1_GetKeyResponse, GetKeyResponse__Output as _gateway_accounting_v1_GetKeyResponse__Output } from '../../../gateway/accounting/v1/GetKeyResponse.js';
import type { GetUsageRequest as _gateway_accounting_v1_GetUsageRequest, GetUsageRequest__Output as _gateway_accounting_v1_GetUsageRequest__Output } from '../../../gateway/accounting/v1/GetUsageRequest.js';
import type { GetUsageResponse as _gateway_accounting_v1_GetUsageResponse, GetUsageResponse__Output as _gateway_accounting_v1_GetUsageResponse__Output } from '../../../gateway/accounting/v1/GetUsageResponse.js';
import type { LeaseBudgetRequest as _gateway_accounting_v1_LeaseBudgetRequest, LeaseBudgetRequest__Output as _gateway_accounting_v1_LeaseBudgetRequest__Output } from '../../../gateway/accounting/v1/LeaseBudgetRequest.js';
import type { LeaseBudgetResponse as _gateway_accounting_v1_LeaseBudgetResponse, LeaseBudgetResponse__Output as _gateway_accounting_v1_LeaseBudgetResponse__Output } from '../../../gateway/accounting/v1/LeaseBudgetResponse.js';
import type { ListKeysRequest as _gateway_accounting_v1_ListKeysRequest, ListKeysRequest__Output as _gateway_accounting_v1_ListKeysRequest__Output } from '../../../gateway/accounting/v1/ListKeysRequest.js';
import type { ListKeysResponse as _gateway_accounting_v1_ListKeysResponse, ListKeysResponse__Output as _gateway_accounting_v1_ListKeysResponse__Output } from '../../../gateway/accounting/v1/ListKeysResponse.js';
import type { ReleaseReservationRequest as _gateway_accounting_v1_ReleaseReservationRequest, ReleaseReservationRequest__Output as _gateway_accounting_v1_ReleaseReservationRequest__Output } from '../../../gateway/accounting/v1/ReleaseReservationRequest.js';
import type { ReleaseReservationResponse as _gateway_accounting_v1_ReleaseReservationResponse, ReleaseReservationResponse__Output as _gateway_accounting_v1_ReleaseReservationResponse__Output } from '../../../gateway/accounting/v1/ReleaseReservationResponse.js';
import type { ReserveBudgetRequest as _gateway_accounting_v1_ReserveBudgetRequest, ReserveBudgetRequest__Output as _gateway_accounting_v1_ReserveBudgetRequest__Output } from '../../../gateway/accounting/v1/ReserveBudgetRequest.js';
import type { ReserveBudgetResponse as _gateway_accounting_v1_ReserveBudgetResponse, ReserveBudgetResponse__Output as _gateway_accounting_v1_ReserveBudgetResponse__Output } from '../../../gateway/accounting/v1/ReserveBudgetResponse.js';
import type { ReserveBudgetsRequest as _gateway_accounting_v1_ReserveBudgetsRequest, ReserveBudgetsRequest__Output as _gateway_accounting_v1_ReserveBudgetsRequest__Output } from '../../../gateway/accounting/v1/ReserveBudgetsRequest.js';
import type { ReserveBudgetsResponse as _gateway_accounting_v1_ReserveBudgetsResponse, ReserveBudgetsResponse__Output as _gateway_accounting_v1_ReserveBudgetsResponse__Output } from '../../../gateway/accounting/v1/ReserveBudgetsResponse.js';
import type { RevokeKeyRequest as _gateway_accounting_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _gateway_accounting_v1_RevokeKeyRequest__Output } from '../../../gateway/accounting/v1/RevokeKeyRequest.js';
import type { RevokeKeyResponse as _gateway_accounting_v1_RevokeKeyResponse, RevokeKeyResponse__Output as _gateway_accounting_v1_RevokeKeyResponse__Output } from '../../../gateway/accounting/v1/RevokeKeyResponse.js';

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
  
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  GetKey(argument: _gateway_accounting_v1_GetKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  getKey(argument: _gateway_accounting_v1_GetKeyRequest, callback: grpc.requestCallback<_gateway_accounting_v1_GetKeyResponse__Output>): grpc.ClientUnaryCall;
  
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
  
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_accounting_v1_ListKeysRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_accounting_v1_ListKeysRequest, callback: grpc.requestCallback<_gateway_accounting_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  
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
  
  GetKey: grpc.handleUnaryCall<_gateway_accounting_v1_GetKeyRequest__Output, _gateway_accounting_v1_GetKeyResponse>;
  
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
  
  ListKeys: grpc.handleUnaryCall<_gateway_accounting_v1_ListKeysRequest__Output, _gateway_accounting_v1_ListKeysResponse>;
  
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
  
}

export interface AccountingServiceDefinition extends grpc.ServiceDefinition {
  AuthenticateKey: MethodDefinition<_gateway_accounting_v1_AuthenticateKeyRequest, _gateway_accounting_v1_AuthenticateKeyResponse, _gateway_accounting_v1_AuthenticateKeyRequest__Output, _gateway_accounting_v1_AuthenticateKeyResponse__Output>
  CreateKey: MethodDefinition<_gateway_accounting_v1_CreateKeyRequest, _gateway_accounting_v1_CreateKeyResponse, _gateway_accounting_v1_CreateKeyRequest__Output, _gateway_accounting_v1_CreateKeyResponse__Output>
  GetKey: MethodDefinition<_gateway_accounting_v1_GetKeyRequest, _gateway_accounting_v1_GetKeyResponse, _gateway_accounting_v1_GetKeyRequest__Output, _gateway_accounting_v1_GetKeyResponse__Output>
  GetUsage: MethodDefinition<_gateway_accounting_v1_GetUsageRequest, _gateway_accounting_v1_GetUsageResponse, _gateway_accounting_v1_GetUsageRequest__Output, _gateway_accounting_v1_GetUsageResponse__Output>
  LeaseBudget: MethodDefinition<_gateway_accounting_v1_LeaseBudgetRequest, _gateway_accounting_v1_LeaseBudgetResponse, _gateway_accounting_v1_LeaseBudgetRequest__Output, _gateway_accounting_v1_LeaseBudgetResponse__Output>
  ListKeys: MethodDefinition<_gateway_accounting_v1_ListKeysRequest, _gateway_accounting_v1_ListKeysResponse, _gateway_accounting_v1_ListKeysRequest__Output, _gateway_accounting_v1_ListKeysResponse__Output>
  ReleaseReservation: MethodDefinition<_gateway_accounting_v1_ReleaseReservationRequest, _gateway_accounting_v1_ReleaseReservationResponse, _gateway_accounting_v1_ReleaseReservationRequest__Output, _gateway_accounting_v1_ReleaseReservationResponse__Output>
  ReserveBudget: MethodDefinition<_gateway_accounting_v1_ReserveBudgetRequest, _gateway_accounting_v1_ReserveBudgetResponse, _gateway_accounting_v1_ReserveBudgetRequest__Output, _gateway_accounting_v1_ReserveBudgetResponse__Output>
  ReserveBudgets: MethodDefinition<_gateway_accounting_v1_ReserveBudgetsRequest, _gateway_accounting_v1_ReserveBudgetsResponse, _gateway_accounting_v1_ReserveBudgetsRequest__Output, _gateway_accounting_v1_ReserveBudgetsResponse__Output>
  RevokeKey: MethodDefinition<_gateway_accounting_v1_RevokeKeyRequest, _gateway_accounting_v1_RevokeKeyResponse, _gateway_accounting_v1_RevokeKeyRequest__Output, _gateway_accounting_v1_RevokeKeyResponse__Output>
}
