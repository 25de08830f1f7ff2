export { ChatSimulator, countPromptTokens, type ChatFault, type ChatFlavor, type ChatSimulatorOptions, type RecordedRequest } from './chat.js';
