import { Agent, OpenAIResponsesModel, Runner, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

// Runs a real OpenAI Agents SDK (@openai/agents) agent with one function tool against a Responses
// API base URL, offline: tracing off (no export to api.openai.com), an explicit OpenAI client with
// the given base URL and key (no OPENAI_API_KEY needed) and no retries.

setTracingDisabled(true);

export interface AgentRunOptions {
  /** The OpenAI-style base URL, ending in /v1. */
  baseURL: string;
  apiKey: string;
  prompt: string;
  model?: string;
  /** Run streamed (Runner.run with stream: true: the SDK sends stream: true and reads SSE). */
  stream?: boolean;
}

export interface AgentRun {
  finalOutput: string;
  /** The arguments the tool was called with, in order. */
  toolCalls: { city: string }[];
  /** What the tool returned, in order. */
  toolResults: string[];
  /** The types of the run's new items, e.g. tool_call_item, tool_call_output_item, message_output_item. */
  itemTypes: string[];
}

/** The tool's answer for a city: a recognisable string the final answer must quote. */
export function weatherFor(city: string): string {
  return `The weather in ${city} is sunny, 21 degrees (tool-result-7f3a).`;
}

export async function runWeatherAgent(options: AgentRunOptions): Promise<AgentRun> {
  const toolCalls: { city: string }[] = [];
  const toolResults: string[] = [];
  const getWeather = tool({
    name: 'get_weather',
    description: 'Returns the current weather for a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      toolCalls.push({ city });
      const result = weatherFor(city);
      toolResults.push(result);
      return result;
    },
  });
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: 30_000 });
  const agent = new Agent({
    name: 'Weather agent',
    instructions: 'You answer questions about the weather. Use the get_weather tool.',
    model: new OpenAIResponsesModel(client, options.model ?? 'demo-chat'),
    tools: [getWeather],
  });
  const runner = new Runner({ tracingDisabled: true, traceIncludeSensitiveData: false });
  let finalOutput: string;
  let items: { type: string }[];
  if (options.stream) {
    const result = await runner.run(agent, options.prompt, { stream: true, maxTurns: 4 });
    // Drain the event stream; the run is complete when it ends.
    for await (const _event of result) {
      // events are not needed here
    }
    await result.completed;
    finalOutput = String(result.finalOutput ?? '');
    items = result.newItems;
  } else {
    const result = await runner.run(agent, options.prompt, { maxTurns: 4 });
    finalOutput = String(result.finalOutput ?? '');
    items = result.newItems;
  }
  return { finalOutput, toolCalls, toolResults, itemTypes: items.map((item) => item.type) };
}
