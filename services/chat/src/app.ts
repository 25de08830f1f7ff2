import { ConfigError, servedGroups, unknownProviders, type ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { GrpcServer, type CallInfo } from '@gateway/grpc';
import {
  protos,
  type ChatServiceHandlers,
  type CreateChatCompletionRequest__Output,
  type CreateAnthropicMessageRequest__Output,
  type CreateResponseRequest__Output,
  type StreamChatCompletionRequest__Output,
  type StreamAnthropicMessageRequest__Output,
  type StreamResponseRequest__Output,
} from '@gateway/protos';
import { decodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, perCallBudget, unlimitedBudget, type CallBudget } from '@gateway/contracts';
import { dataDir, deploymentHealthMessage, loadEncryptionKey, modelGroupMessage, type ServiceDeps } from '@gateway/runtime';
import { busEventsRejectedSeries, observeBus } from '@gateway/telemetry';
import { Router } from '@gateway/upstream';
import { ChatCompletions, type CompletionInput } from './domain/completions.js';
import { busMeter } from './domain/metering.js';
import { chatProviders, type LocalUpstream } from './providers/index.js';
import { UpstreamClient } from './upstream/client.js';
import { AnthropicMessages, type MessageInput } from './messages/messages.js';
import { Responses, type ResponseInput } from './responses/responses.js';
import type { ResponseStore } from './responses/storage.js';

export interface ChatDeps extends ServiceDeps {
  /** Holds each call's worst case before it goes upstream; without one every call fits. */
  budget?: CallBudget;
  /** Unix ms now: which price window a call starts in, and its spend's date (tests move it); Date.now by default. */
  clock?: () => number;
  /** Where stored responses (the Responses API's `store`) are kept: accounting. Without one none are kept. */
  responseStore?: ResponseStore;
}

export interface ChatApp {
  server: GrpcServer;
  completions: ChatCompletions;
  responses: Responses;
  router: Router<ChatGroupConfig>;
  stop(): Promise<void>;
}

const COMPLETION_ID = /^chatcmpl-[A-Za-z0-9]{8,64}$/;
const RESPONSE_ID = /^resp_[A-Za-z0-9]{8,64}$/;
const MESSAGE_ID = /^msg_[A-Za-z0-9]{8,64}$/;

/** Wires the chat service: routing, provider adapters, upstream HTTP and metering behind gRPC. */
export async function buildChatApp(deps: ChatDeps): Promise<ChatApp> {
  const { config, bus, logger, env } = deps;
  const chatGroups = config.groups.filter((g): g is ChatGroupConfig => g.mode === 'chat');
  // A provider name no folder here implements is a configuration error, said like one.
  const unknown = unknownProviders(config, 'chat', chatProviders);
  if (unknown.length > 0) throw new ConfigError(config.source, unknown);
  const groupsById = new Map(chatGroups.map((g) => [g.id, g]));
  const router = new Router(config.router, groupsById, env);
  const http = new UpstreamClient(env);
  // A provider that answers locally (demo) takes its calls; every other goes over HTTP.
  const upstream: LocalUpstream = {
    complete: (call) => (chatProviders.get(call.deployment.provider)?.local ?? http).complete(call),
    stream: (call) => (chatProviders.get(call.deployment.provider)?.local ?? http).stream(call),
  };
  const budget = deps.budget ?? perCallBudget(unlimitedBudget);
  // A key's or team's change drops the budget leases it concerns: calls after it renew under the new terms.
  const keyChanges = await bus.subscribe<unknown>(KEYS_CHANGED_SUBJECT, (data, subject) => {
    try {
      budget.forget?.(decodeKeyChangedEvent(data, subject));
    } catch (error) {
      // A malformed broadcast names nothing to drop; leases still expire within their TTL.
      busEventsRejectedSeries(subject).inc();
      logger.warn({ err: error, subject }, 'malformed key-change event; ignored');
    }
  });
  const clock = deps.clock ?? Date.now;
  const completions = new ChatCompletions(
    groupsById,
    chatProviders,
    router,
    upstream,
    busMeter(bus, clock),
    config.router,
    logger,
    budget,
    clock,
  );
  // One key on every replica (GATEWAY_ENCRYPTION_KEY), or one generated into this data folder.
  const key = loadEncryptionKey(env, dataDir(env));
  const responses = new Responses(completions, deps.responseStore, key, logger, clock);
  const messages = new AnthropicMessages(completions, key);

  const server = new GrpcServer({
    logger,
    service: 'chat',
    shutdownGraceMs: config.server.shutdownGraceMs,
    // No checks of its own: the bus may be away (spend waits in the outbox), and upstreams are the router's to judge.
    checks: {},
  });
  // Credentials are read once at start: a served group stays served for the process's life.
  const served = servedGroups(config, 'chat', env).map(modelGroupMessage);
  // The call's CallInfo collects the upstream time, which goes back to the edge as x-upstream-ms.
  const input = (request: CreateChatCompletionRequest__Output | StreamChatCompletionRequest__Output, call: CallInfo): CompletionInput => {
    if (!request.key_id || !request.group) throw new GatewayError('invalid_request', { message: 'key_id and group are required.' });
    if (request.completion_id && !COMPLETION_ID.test(request.completion_id)) {
      throw new GatewayError('invalid_request', {
        param: 'completion_id',
        message: 'completion ids are chatcmpl- and 8-64 letters or digits.',
      });
    }
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
      ...(request.completion_id ? { completionId: request.completion_id } : {}),
    };
  };
  const responseInput = (request: CreateResponseRequest__Output | StreamResponseRequest__Output, call: CallInfo): ResponseInput => {
    if (!RESPONSE_ID.test(request.response_id)) {
      throw new GatewayError('invalid_request', { param: 'response_id', message: 'response ids are resp_ and 8-64 letters or digits.' });
    }
    const { key_id, model, body, group } = request;
    const base = input({ key_id, model, body, group, completion_id: '' }, call);
    return { ...base, completionId: request.response_id, storageOff: request.storage_off };
  };
  const messageInput = (
    request: CreateAnthropicMessageRequest__Output | StreamAnthropicMessageRequest__Output,
    call: CallInfo,
  ): MessageInput => {
    if (!MESSAGE_ID.test(request.message_id)) {
      throw new GatewayError('invalid_request', { param: 'message_id', message: 'message ids are msg_ and 8-64 letters or digits.' });
    }
    const { key_id, model, body, group } = request;
    return { ...input({ key_id, model, body, group, completion_id: '' }, call), completionId: request.message_id };
  };
  const handlers: ChatServiceHandlers = {
    ListModels: server.unary('ListModels', async () => ({ groups: served })),
    CreateChatCompletion: server.unary('CreateChatCompletion', async (request, call) => {
      const { body, usage } = await completions.create(input(request, call));
      return { body, usage };
    }),
    StreamChatCompletion: server.serverStream('StreamChatCompletion', async (request, write, call) => {
      await completions.stream(input(request, call), (chunks, usage) => write({ chunks, usage: usage ?? null }));
    }),
    CreateResponse: server.unary('CreateResponse', async (request, call) => {
      const { body, usage, dropped } = await responses.create(responseInput(request, call));
      return { body, usage, dropped_tools: dropped };
    }),
    StreamResponse: server.serverStream('StreamResponse', async (request, write, call) => {
      await responses.stream(responseInput(request, call), (events, usage, dropped) =>
        write({ events, usage: usage ?? null, dropped_tools: dropped ?? [] }),
      );
    }),
    CreateAnthropicMessage: server.unary('CreateAnthropicMessage', async (request, call) => {
      const { body, usage, dropped } = await messages.create(messageInput(request, call));
      return { body, usage, dropped_tools: dropped };
    }),
    StreamAnthropicMessage: server.serverStream('StreamAnthropicMessage', async (request, write, call) => {
      await messages.stream(messageInput(request, call), (events, usage, dropped) =>
        write({ events, usage: usage ?? null, dropped_tools: dropped ?? [] }),
      );
    }),
    CountAnthropicTokens: server.unary('CountAnthropicTokens', async (request) => ({
      input_tokens: messages.countTokens(request.group, request.body),
    })),
    GetUpstreamHealth: server.unary('GetUpstreamHealth', async () => ({ deployments: router.health().map(deploymentHealthMessage) })),
  };
  server.addService('gateway.chat.v1.ChatService', protos().gateway.chat.v1.ChatService.service, handlers);
  const unobserveBus = observeBus(bus);
  return {
    server,
    completions,
    responses,
    router,
    stop: async () => {
      unobserveBus();
      await keyChanges.close();
      await budget.close();
      await http.close();
    },
  };
}
