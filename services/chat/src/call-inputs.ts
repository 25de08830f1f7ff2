import { GatewayError } from '@gateway/errors';
import type { CallInfo } from '@gateway/grpc';
import type {
  CreateAnthropicMessageRequest__Output,
  CreateChatCompletionRequest__Output,
  CreateResponseRequest__Output,
  StreamAnthropicMessageRequest__Output,
  StreamChatCompletionRequest__Output,
  StreamResponseRequest__Output,
} from '@gateway/protos';
import type { CompletionInput } from './domain/completions.js';
import type { MessageInput } from './messages/messages.js';
import type { ResponseInput } from './responses/responses.js';

// Each RPC's request as the domain's call input. The call's CallInfo collects the upstream
// time, which goes back to the edge as x-upstream-ms; its signal and deadline bound the call.

/** The ids the edge chooses, by field: each becomes its call's spend-event idempotency id. */
const IDS = {
  completion_id: { prefix: 'chatcmpl-', pattern: /^chatcmpl-[A-Za-z0-9]{8,64}$/ },
  response_id: { prefix: 'resp_', pattern: /^resp_[A-Za-z0-9]{8,64}$/ },
  message_id: { prefix: 'msg_', pattern: /^msg_[A-Za-z0-9]{8,64}$/ },
} as const;

type CallFields = Pick<CreateChatCompletionRequest__Output, 'key_id' | 'model' | 'body' | 'group'>;

function callInput(request: CallFields, call: CallInfo, completionId?: string): CompletionInput {
  if (!request.key_id || !request.group) throw new GatewayError('invalid_request', { message: 'key_id and group are required.' });
  return {
    keyId: request.key_id,
    model: request.model,
    groupId: request.group,
    body: request.body,
    requestId: call.requestId,
    scope: call.scope,
    signal: call.signal,
    deadline: call.deadline,
    timing: call,
    ...(completionId ? { completionId } : {}),
  };
}

function checkedId(id: string, param: keyof typeof IDS): string {
  const { prefix, pattern } = IDS[param];
  if (!pattern.test(id)) throw new GatewayError('invalid_request', { param, message: `${param} is ${prefix} and 8-64 letters or digits.` });
  return id;
}

export function completionInput(
  request: CreateChatCompletionRequest__Output | StreamChatCompletionRequest__Output,
  call: CallInfo,
): CompletionInput {
  const id = request.completion_id ? checkedId(request.completion_id, 'completion_id') : undefined;
  return callInput(request, call, id);
}

export function responseInput(request: CreateResponseRequest__Output | StreamResponseRequest__Output, call: CallInfo): ResponseInput {
  const completionId = checkedId(request.response_id, 'response_id');
  return { ...callInput(request, call), completionId, storageOff: request.storage_off };
}

export function messageInput(
  request: CreateAnthropicMessageRequest__Output | StreamAnthropicMessageRequest__Output,
  call: CallInfo,
): MessageInput {
  const completionId = checkedId(request.message_id, 'message_id');
  return { ...callInput(request, call), completionId };
}
