import type { VideoGroupConfig } from '@gateway/config';
import type { ProviderTask } from '../providers/index.js';

/** Output frames per second of the token-billed (Seedance) groups. */
const TOKEN_FPS = 24;

/**
 * The price of a finished job in whole nano-dollars: seconds × the resolution's price for
 * per-second groups; the provider's real token count × the price per token for token groups.
 * Undefined when a token group's task reported no count (the job is then not billed, and logged).
 */
export function jobCost(
  group: VideoGroupConfig,
  resolution: string,
  seconds: number,
  task: Pick<ProviderTask, 'totalTokens'>,
): number | undefined {
  const unit = group.price.nanosByResolution[resolution];
  if (unit === undefined) return undefined;
  if (group.price.kind === 'per_second') return seconds * unit;
  return task.totalTokens === undefined ? undefined : task.totalTokens * unit;
}

/** The worst-case price before the job runs (for budgets): tokens ≈ w × h × (s × fps + 1) / 1024. */
export function estimatedCost(
  group: VideoGroupConfig,
  resolution: string,
  seconds: number,
  pixels: [number, number] | undefined,
): number | undefined {
  const unit = group.price.nanosByResolution[resolution];
  if (unit === undefined) return undefined;
  if (group.price.kind === 'per_second') return seconds * unit;
  if (!pixels) return undefined;
  return Math.ceil((pixels[0] * pixels[1] * (seconds * TOKEN_FPS + 1)) / 1024) * unit;
}
