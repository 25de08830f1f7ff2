// The gRPC contracts, loaded once with the options in loader-options.json; the generated types
// under ./generated come from the same options (scripts/gen-protos.mjs), so they match what
// grpc-js really hands to handlers and callbacks.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType as AccountingProto } from './generated/accounting.js';
import type { ProtoGrpcType as ChatProto } from './generated/chat.js';
import type { ProtoGrpcType as HealthProto } from './generated/health.js';
import type { ProtoGrpcType as VideoProto } from './generated/video.js';

const require = createRequire(import.meta.url);

interface LoaderOptionsJson {
  keepCase: boolean;
  longs: 'Number' | 'String';
  enums: 'String';
  defaults: boolean;
  oneofs: boolean;
}

const optionsJson = require('../loader-options.json') as LoaderOptionsJson;
const protoFiles = require('../proto-files.json') as string[];

/** The proto-loader options, with the JSON names turned into the constructors grpc-js expects. */
export const loaderOptions: protoLoader.Options = {
  keepCase: optionsJson.keepCase,
  longs: optionsJson.longs === 'Number' ? Number : String,
  enums: String,
  defaults: optionsJson.defaults,
  oneofs: optionsJson.oneofs,
  includeDirs: [fileURLToPath(new URL('../../../proto/', import.meta.url))],
};

/** A part of a name that would reach Object's prototype (grpc-js skips such names too). */
const UNSAFE_NAMES = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * grpc-js's loadPackageDefinition, without loading grpc-js: the same hierarchy, messages and
 * enums as they are, and for each service a client class carrying its definition (`service`,
 * `serviceName`) that becomes grpc-js's generated class on first `new`. Only a client for a
 * target over the wire constructs one (the in-process client reads `service`), so a process that
 * never does holds none of grpc-js (~100 modules, ~2.9 MiB of heap).
 */
function loadPackageDefinition(definition: protoLoader.PackageDefinition): grpc.GrpcObject {
  const result: grpc.GrpcObject = {};
  for (const [fqn, entry] of Object.entries(definition)) {
    const names = fqn.split('.');
    if (names.some((name) => UNSAFE_NAMES.has(name))) continue;
    const serviceName = names[names.length - 1] ?? fqn;
    let current = result;
    for (const name of names.slice(0, -1)) {
      current[name] ??= {};
      current = current[name] as grpc.GrpcObject;
    }
    current[serviceName] = isService(entry) ? lazyClientConstructor(entry, serviceName) : entry;
  }
  return result;
}

/** A service, not a message or an enum (grpc-js's test: those have a `format`). */
function isService(entry: protoLoader.AnyDefinition): entry is protoLoader.ServiceDefinition {
  return !('format' in entry);
}

function lazyClientConstructor(service: grpc.ServiceDefinition, serviceName: string): grpc.ServiceClientConstructor {
  let made: grpc.ServiceClientConstructor | undefined;
  return class {
    static readonly service = service;
    static readonly serviceName = serviceName;
    constructor(...args: ConstructorParameters<grpc.ServiceClientConstructor>) {
      made ??= (require('@grpc/grpc-js') as typeof grpc).makeClientConstructor(service, serviceName, {});
      // biome-ignore lint/correctness/noConstructorReturn: the generated client stands in for this placeholder
      return new made(...args);
    }
  } as unknown as grpc.ServiceClientConstructor;
}

type AllProtos = AccountingProto & ChatProto & VideoProto & HealthProto;

let loaded: AllProtos | undefined;

/** Every service and message of the gateway's contracts (loaded on first use, then cached). */
export function protos(): AllProtos {
  if (!loaded) {
    const definition = protoLoader.loadSync(protoFiles, loaderOptions);
    loaded = loadPackageDefinition(definition) as unknown as AllProtos;
  }
  return loaded;
}

export type { AccountingServiceClient, AccountingServiceHandlers } from './generated/gateway/accounting/v1/AccountingService.js';
export type { ChatServiceClient, ChatServiceHandlers } from './generated/gateway/chat/v1/ChatService.js';
export type { CreateChatCompletionRequest__Output } from './generated/gateway/chat/v1/CreateChatCompletionRequest.js';
export type { StreamChatCompletionRequest__Output } from './generated/gateway/chat/v1/StreamChatCompletionRequest.js';
export type { CreateResponseRequest__Output } from './generated/gateway/chat/v1/CreateResponseRequest.js';
export type { StreamResponseRequest__Output } from './generated/gateway/chat/v1/StreamResponseRequest.js';
export type { CreateAnthropicMessageRequest__Output } from './generated/gateway/chat/v1/CreateAnthropicMessageRequest.js';
export type { StreamAnthropicMessageRequest__Output } from './generated/gateway/chat/v1/StreamAnthropicMessageRequest.js';
export type { StoredResponse, StoredResponse__Output } from './generated/gateway/accounting/v1/StoredResponse.js';
export type { MeteredUsage, MeteredUsage__Output } from './generated/gateway/chat/v1/MeteredUsage.js';
export type { VideoServiceClient, VideoServiceHandlers } from './generated/gateway/video/v1/VideoService.js';
export type { HealthClient, HealthHandlers } from './generated/grpc/health/v1/Health.js';
export type { HealthCheckResponse__Output } from './generated/grpc/health/v1/HealthCheckResponse.js';
export type { ModelGroup, ModelGroup__Output } from './generated/gateway/common/v1/ModelGroup.js';
export type { ModelGroupMode__Output } from './generated/gateway/common/v1/ModelGroupMode.js';
export type { DeploymentHealth, DeploymentHealth__Output } from './generated/gateway/common/v1/DeploymentHealth.js';
export type { DeploymentState, DeploymentState__Output } from './generated/gateway/common/v1/DeploymentState.js';
export type { Key, Key__Output } from './generated/gateway/accounting/v1/Key.js';
export type { Team, Team__Output } from './generated/gateway/accounting/v1/Team.js';
export type { TeamFields, TeamFields__Output } from './generated/gateway/accounting/v1/TeamFields.js';
export type { KeyPatch, KeyPatch__Output } from './generated/gateway/accounting/v1/KeyPatch.js';
export type { Balance, Balance__Output } from './generated/gateway/accounting/v1/Balance.js';
export type { BudgetPeriod as BudgetPeriodEnum, BudgetPeriod__Output } from './generated/gateway/accounting/v1/BudgetPeriod.js';
export type { AuditContext, AuditContext__Output } from './generated/gateway/accounting/v1/AuditContext.js';
export type { AuditEvent, AuditEvent__Output } from './generated/gateway/accounting/v1/AuditEvent.js';
export type { SpendLogEntry, SpendLogEntry__Output } from './generated/gateway/accounting/v1/SpendLogEntry.js';
export type { DailySpend, DailySpend__Output } from './generated/gateway/accounting/v1/DailySpend.js';
export type { TopSpender__Output } from './generated/gateway/accounting/v1/TopSpender.js';
export type { ReserveBudgetRequest__Output } from './generated/gateway/accounting/v1/ReserveBudgetRequest.js';
export type { GroupUsage, GroupUsage__Output } from './generated/gateway/accounting/v1/GroupUsage.js';
export type { GetUsageResponse, GetUsageResponse__Output } from './generated/gateway/accounting/v1/GetUsageResponse.js';
export type { VideoJob, VideoJob__Output } from './generated/gateway/video/v1/VideoJob.js';
export type { OwnedVideoJob__Output } from './generated/gateway/video/v1/OwnedVideoJob.js';
export { VideoStatus } from './generated/gateway/video/v1/VideoStatus.js';
export type { VideoStatus__Output } from './generated/gateway/video/v1/VideoStatus.js';
export {
  eventCodecs,
  type EventCodecs,
  type MessageCodec,
  type SpendEventMessage,
  type SpendEventMessage__Output,
  type KeyChangedEventMessage,
  type KeyChangedEventMessage__Output,
  type EventBatch,
  type EventBatch__Output,
} from './events.js';
