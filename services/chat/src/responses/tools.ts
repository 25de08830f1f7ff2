import { invalid, isObject, type JsonObject } from '../domain/request.js';

// Responses tools as chat tools. Function tools translate one to one; `namespace` tools are
// flattened into their function tools; every other type (web_search, file_search, computer_use,
// mcp, custom, …) is a tool the vendor would run, which a chat group cannot: dropped, like an
// unknown parameter, and named back to the caller in `x-gateway-dropped`.

export interface ChatTools {
  /** Chat-shaped function tools; empty when none is left. */
  tools: JsonObject[];
  /** The types dropped, in the order first met. */
  dropped: string[];
  /** Function name to the namespace it came from, to name it again on the way out. */
  namespaces: Map<string, string>;
}

function functionTool(tool: JsonObject, path: string): JsonObject {
  if (typeof tool.name !== 'string' || tool.name === '') throw invalid(`${path}.name`, 'must be a non-empty string.');
  const fn: JsonObject = { name: tool.name };
  if (typeof tool.description === 'string') fn.description = tool.description;
  if (isObject(tool.parameters)) fn.parameters = tool.parameters;
  else if (tool.parameters !== undefined && tool.parameters !== null) throw invalid(`${path}.parameters`, 'must be a JSON Schema object.');
  if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

export function chatTools(value: unknown): ChatTools {
  const out: ChatTools = { tools: [], dropped: [], namespaces: new Map() };
  if (value === undefined || value === null) return out;
  if (!Array.isArray(value)) throw invalid('tools', 'must be an array of tools.');
  const drop = (type: string) => {
    if (!out.dropped.includes(type)) out.dropped.push(type);
  };
  value.forEach((tool, i) => {
    const path = `tools[${i}]`;
    if (!isObject(tool) || typeof tool.type !== 'string') throw invalid(`${path}.type`, 'must be a tool object with a type.');
    if (tool.type === 'function') out.tools.push(functionTool(tool, path));
    else if (tool.type === 'namespace') {
      if (typeof tool.name !== 'string' || !Array.isArray(tool.tools)) throw invalid(path, 'a namespace tool has a name and tools.');
      tool.tools.forEach((inner, j) => {
        if (isObject(inner) && inner.type === 'function') {
          out.tools.push(functionTool(inner, `${path}.tools[${j}]`));
          out.namespaces.set(inner.name as string, tool.name as string);
        } else drop(isObject(inner) && typeof inner.type === 'string' ? inner.type : 'unknown');
      });
    } else drop(tool.type);
  });
  return out;
}

/** `tool_choice` as chat takes it, against the tools left; undefined leaves the upstream's default. */
export function chatToolChoice(value: unknown, tools: readonly JsonObject[]): unknown {
  const choice = readToolChoice(value);
  return tools.length === 0 ? undefined : choice;
}

/** The choice checked whatever tools are left: a wrong one is the caller's mistake either way. */
function readToolChoice(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (!isObject(value) || typeof value.type !== 'string')
    throw invalid('tool_choice', "must be 'auto', 'none', 'required' or a tool choice object.");
  if (value.type === 'function') {
    if (typeof value.name !== 'string' || value.name === '') throw invalid('tool_choice.name', 'must be a non-empty string.');
    return { type: 'function', function: { name: value.name } };
  }
  // A subset of the tools: the upstream gets them all, under the subset's mode.
  if (value.type === 'allowed_tools') return value.mode === 'required' ? 'required' : 'auto';
  // A hosted tool that was dropped: the model chooses among the rest.
  return 'auto';
}
