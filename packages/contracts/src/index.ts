// The client half of every agreement between the services: what a caller of a service needs
// (typed clients, the budget port, leases, key rules, id formats, the events and their
// subjects) without loading the service itself. Services import this, never each other.

export { AccountingClient, accountingBudget, type AuthenticatedKeyAnswer, type NewKeyInput } from './accounting.js';
export {
  ChatClient,
  type Completion,
  type CompletionCall,
  type CompletionStream,
  type ResponseCall,
  type ResponseResult,
  type ResponseStream,
  type ResponseStreamMessage,
  type AnthropicMessageCall,
  type AnthropicMessageStream,
  type DialectStreamMessage,
  type StreamMessage,
} from './chat.js';
export { VideoClient, videoJobStatus, videoStatusMessage, type CreateVideoCall, type VideoJobStatus } from './video.js';
export {
  perCallBudget,
  traceOnly,
  unlimitedBudget,
  type BudgetAuthority,
  type BudgetClaim,
  type CallBudget,
  type HoldContext,
  type ReserveInput,
} from './budget.js';
export { BudgetLeases, LEASE_PREFIX, type BudgetLeaseOptions } from './leases.js';
export { ALL_MODELS, hashSecret, KEY_PREFIX, keyAllows, looksLikeSecret } from './keys.js';
export { newCompletionId, newMessageId, newResponseId, timeOrderedHex } from './completions.js';
export { groupMode, modeMessage, type GroupMode } from './groups.js';
export * from './events.js';
export {
  deleteStoredResponse,
  getStoredResponse,
  isResponseNotFound,
  putStoredResponse,
  storedResponseFromWire,
  storedResponseToWire,
  type StoredResponseRecord,
} from './stored-responses.js';
export { BUDGET_PERIODS, budgetPeriodFromWire, budgetPeriodToWire, type BudgetPeriod } from './periods.js';
