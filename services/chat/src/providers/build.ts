import type { ChatRequest, JsonObject } from '../domain/request.js';
import type { ChatProvider, ProviderContext } from './types.js';

/** The upstream body: the provider's parameter map applied to the caller's body. */
export function buildUpstreamBody(provider: ChatProvider, request: ChatRequest, context: ProviderContext): JsonObject {
  const body: JsonObject = { model: context.deployment.model };
  body.messages = request.messages.map((message) => {
    const sent: JsonObject = { ...message, role: provider.roles[message.role] };
    return provider.message ? provider.message(sent) : sent;
  });
  for (const [name, value] of Object.entries(request.body)) {
    if (name === 'model' || name === 'messages' || value === undefined) continue;
    // Own keys only: a caller's "toString" or "constructor" must not find Object.prototype's.
    const rule = Object.hasOwn(provider.params, name) ? provider.params[name] : undefined;
    if (rule === undefined) continue;
    if (rule === true) body[name] = value;
    else if (typeof rule === 'function') Object.assign(body, rule(value, request, context));
    else body[rule.to] = value;
  }
  if (request.stream) {
    // Usage is always asked for, so streamed calls are metered too; the edge of this service
    // strips the usage chunk again when the caller did not ask for it.
    body.stream = true;
    body.stream_options = { include_usage: true };
  } else {
    delete body.stream;
    delete body.stream_options;
  }
  provider.finalize?.(body, request, context);
  return body;
}
