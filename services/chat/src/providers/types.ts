import type { ChatGroupConfig, DeploymentConfig } from '@gateway/config';
import type { ChatRequest, JsonObject, Role } from '../domain/request.js';
import type { UpstreamCall, UpstreamStream } from '../upstream/client.js';

/** An upstream that answers inside the gateway (the demo provider): the same two calls as HTTP. */
export interface LocalUpstream {
  complete(call: UpstreamCall): Promise<JsonObject>;
  stream(call: UpstreamCall): Promise<UpstreamStream>;
}

export interface ProviderContext {
  group: ChatGroupConfig;
  deployment: DeploymentConfig;
}

/**
 * How one caller parameter reaches the upstream:
 * - `true`: as it is, under the same name;
 * - `{ to }`: as it is, under another name;
 * - a function: the fields it returns (none to drop it).
 * A parameter absent from the map is dropped.
 */
export type ParamRule = true | { to: string } | ((value: unknown, request: ChatRequest, context: ProviderContext) => JsonObject);

export interface ChatProvider {
  /** The name deployments use in `provider:`. */
  readonly name: string;
  /** The parameters the upstream understands (`model` and `messages` are always set). */
  readonly params: Readonly<Record<string, ParamRule>>;
  /** Roles the upstream accepts, with the role each is sent as. */
  readonly roles: Readonly<Record<Role, Role>>;
  /** Last touches on the upstream body, e.g. flags the upstream must always receive. */
  finalize?(body: JsonObject, request: ChatRequest, context: ProviderContext): void;
  /** Adjusts each message before it is sent. */
  message?(message: JsonObject): JsonObject;
  /** Adjusts a complete response or one stream chunk from the upstream, in place. */
  response?(body: JsonObject): void;
  chunk?(chunk: JsonObject): void;
  /** Set: calls are answered here instead of over HTTP (no api_base, no credential). */
  local?: LocalUpstream;
}
