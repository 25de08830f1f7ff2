import { isObject, type JsonObject } from '../../domain/request.js';

// Function tools as DeepSeek takes them. Clients that build schemas with a library (the Agents
// SDK's zod schemas) send `$schema` in `parameters` and `strict` on the function; DeepSeek's
// chat API documents neither outside its beta endpoint, so both are left out rather than risk
// a 400 for the whole call. Other tools and fields pass as they came.

function cleanFunction(fn: JsonObject): JsonObject {
  const { strict: _strict, ...rest } = fn;
  if (!isObject(rest.parameters) || !('$schema' in rest.parameters)) return rest;
  const { $schema: _schema, ...parameters } = rest.parameters;
  return { ...rest, parameters };
}

export function deepseekTools(tools: unknown): JsonObject {
  if (!Array.isArray(tools)) return { tools };
  return {
    tools: tools.map((tool) => (isObject(tool) && isObject(tool.function) ? { ...tool, function: cleanFunction(tool.function) } : tool)),
  };
}
