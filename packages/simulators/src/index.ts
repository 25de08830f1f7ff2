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
export {
  ARK_PIXELS,
  VideoSimulator,
  type VideoFault,
  type VideoProtocol,
  type VideoRecordedRequest,
  type VideoSimulatorOptions,
} from './video.js';
