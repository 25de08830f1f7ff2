export { errorCatalog, isErrorCode, codeForGrpcStatus, type ErrorCode, type ErrorSpec } from './catalog.js';
export {
  GatewayError,
  isGatewayError,
  toOpenAIError,
  asGatewayError,
  type GatewayErrorOptions,
  type OpenAIErrorBody,
} from './gateway-error.js';
export { toAnthropicError, type AnthropicErrorBody } from './anthropic.js';
