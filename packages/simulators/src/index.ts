export {
  ChatSimulator,
  countPromptTokens,
  countToolTokens,
  type ChatFault,
  type ChatFlavor,
  type ChatSimulatorOptions,
  type RecordedRequest,
} from './chat.js';
export { CACHE_BLOCK_TOKENS, expectedCachedTokens, PromptCache, promptText } from './prompt-cache.js';
export { VideoSimulator } from './video.js';
export { ARK_PIXELS } from './video-protocols.js';
export type { VideoFault, VideoProtocol, VideoRecordedRequest, VideoSimulatorOptions } from './video-options.js';
