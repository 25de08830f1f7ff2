// The benchmark's upstreams, in their own process: a zero-latency OpenAI-compatible simulator,
// and one that spaces its stream chunks (for time-to-first-chunk and held-back checks).
// Prints {"fast": url, "spaced": url} on one line, then serves until killed.
import { ChatSimulator } from '@gateway/simulators';

const common = {
  flavor: /** @type {const} */ ('openai'),
  credential: 'bench-credential',
  models: ['bench-model'],
  record: false,
  reply: 'One two three four five six seven eight.',
};
const fast = new ChatSimulator(common);
const spaced = new ChatSimulator({ ...common, chunkDelayMs: Number(process.env.CHUNK_DELAY_MS ?? 25) });
const [fastUrl, spacedUrl] = await Promise.all([fast.listen(), spaced.listen()]);
process.stdout.write(`${JSON.stringify({ fast: fastUrl, spaced: spacedUrl })}\n`);
process.on('SIGTERM', () => process.exit(0));
