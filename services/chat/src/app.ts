import { ConfigError, servedGroups, unknownProviders, type ChatGroupConfig } from '@gateway/config';
import { GrpcServer } from '@gateway/grpc';
import { protos } from '@gateway/protos';
import { decodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, perCallBudget, unlimitedBudget, type CallBudget } from '@gateway/contracts';
import { dataDir, loadEncryptionKey, modelGroupMessage, type ServiceDeps } from '@gateway/runtime';
import { busEventsRejectedSeries, observeBus } from '@gateway/telemetry';
import { Router } from '@gateway/upstream';
import { ChatCompletions } from './domain/completions.js';
import { busMeter } from './domain/metering.js';
import { chatProviders, type LocalUpstream } from './providers/index.js';
import { UpstreamClient } from './upstream/client.js';
import { chatHandlers } from './handlers.js';
import { AnthropicMessages } from './messages/messages.js';
import { Responses } from './responses/responses.js';
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
  const handlers = chatHandlers(server, { completions, responses, messages, router, served });
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
