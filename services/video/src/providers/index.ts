import { arkProvider } from './ark/index.js';
import { demoProvider } from './demo/index.js';
import { minimaxProvider } from './minimax/index.js';
import type { VideoProvider } from './types.js';

export type { VideoProvider, ProviderTask, RenderRequest, JobStatus } from './types.js';

/** Every video provider protocol, by the name deployments use. Adding one: a folder and a line here. */
export const videoProviders: ReadonlyMap<string, VideoProvider> = new Map(
  [arkProvider, demoProvider, minimaxProvider].map((provider) => [provider.name, provider]),
);
