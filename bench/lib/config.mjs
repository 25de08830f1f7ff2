// What every benchmark writes and reads the same way: the gateway.yaml of a chat group in front
// of the bench upstream, and the JSON lines its processes print.
import { writeFileSync } from 'node:fs';

/**
 * A line as JSON, or undefined when it is not JSON (log lines of other shapes, partial output).
 * @param {string} line
 * @returns {any}
 */
export function json(line) {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Writes a gateway.yaml with one chat group per entry, each one deployment of the bench
 * upstream at `url` (its OpenAI protocol under /v1), priced like a small model.
 * @param {string} path
 * @param {{ id: string, url: string }[]} groups
 * @param {{ credentialEnv?: string }} [options] the variable the deployments read the upstream's key from
 * @returns {string} `path`
 */
export function writeChatConfig(path, groups, { credentialEnv = 'BENCH_UPSTREAM_KEY' } = {}) {
  const yaml = groups
    .map(
      ({ id, url }) => `
  - id: ${id}
    mode: chat
    max_input_tokens: 100000
    max_output_tokens: 4096
    price: { input_per_mtok: 0.15, output_per_mtok: 0.6 }
    deployments: [{ provider: openai, model: bench-model, api_base: "${url}/v1", api_key_env: ${credentialEnv} }]`,
    )
    .join('');
  writeFileSync(path, `groups:${yaml}\n`);
  return path;
}
