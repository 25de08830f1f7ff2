import { invalid, isObject, type JsonObject } from '../domain/request.js';

// Anthropic tools as chat tools. Client tools (`input_schema`) translate one to one; server
// tools (web search, code execution, bash, text editor, computer, …) are the vendor's to run,
// which a chat group cannot: dropped, and named back in `x-gateway-dropped`.

export interface ChatTools {
  tools: JsonObject[];
  dropped: string[];
}

function clientTool(tool: JsonObject, path: string): JsonObject {
  if (typeof tool.name !== 'string' || tool.name === '') throw invalid(`${path}.name`, 'must be a non-empty string.');
  if (!isObject(tool.input_schema)) throw invalid(`${path}.input_schema`, 'must be a JSON Schema object.');
  const fn: JsonObject = { name: tool.name, parameters: tool.input_schema };
  if (typeof tool.description === 'string') fn.description = tool.description;
  if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

export function chatTools(value: unknown): ChatTools {
  const out: ChatTools = { tools: [], dropped: [] };
  if (value === undefined || value === null) return out;
  if (!Array.isArray(value)) throw invalid('tools', 'must be an array of tools.');
  value.forEach((tool, i) => {
    const path = `tools[${i}]`;
    if (!isObject(tool)) throw invalid(path, 'must be a tool object.');
    // A client tool has no type, or `custom`; every other type is a server tool.
    if (tool.type === undefined || tool.type === null || tool.type === 'custom') out.tools.push(clientTool(tool, path));
    else if (typeof tool.type === 'string') {
      if (!out.dropped.includes(tool.type)) out.dropped.push(tool.type);
    } else throw invalid(`${path}.type`, 'must be a string.');
  });
  return out;
}

/** `tool_choice` as chat takes it: auto, any (required), tool (that function), none; and whether calls may run in parallel. */
export function chatToolChoice(value: unknown): { choice?: unknown; parallel?: false } {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw invalid('tool_choice', 'must be an object with a type.');
  const parallel = value.disable_parallel_tool_use === true ? ({ parallel: false } as const) : {};
  switch (value.type) {
    case 'auto':
      return { choice: 'auto', ...parallel };
    case 'any':
      return { choice: 'required', ...parallel };
    case 'none':
      return { choice: 'none' };
    case 'tool':
      if (typeof value.name !== 'string' || value.name === '') throw invalid('tool_choice.name', 'must be a non-empty string.');
      return { choice: { type: 'function', function: { name: value.name } }, ...parallel };
    default:
      throw invalid('tool_choice.type', 'must be one of auto, any, tool, none.');
  }
}
