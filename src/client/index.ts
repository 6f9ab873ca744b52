export { AdvisorParams } from './advisor-params.js';
export { type AdvisorParamsCustomizer, AdvisorSpec } from './advisor-spec.js';
export { CallResponseSpec } from './call-response-spec.js';
export { ChatClient, type ChatClientOptions } from './chat-client.js';
export {
  type AdvisorEntry,
  ChatClientRequestSpec,
  type RunOptions,
} from './chat-client-request-spec.js';
export type { UserInput } from './chat-client-request-state.js';
export type { OutputSchema } from './output-schema.js';
export { parseJsonAnswer } from './parse-json-answer.js';
export {
  pipeServerSentEvents,
  type ServerSentEventsSource,
} from './pipe-server-sent-events.js';
export { type ServerSentEventsOptions, toServerSentEventsResponse } from './server-sent-events.js';
export { StreamResponseSpec } from './stream-response-spec.js';
export {
  type JsonSchemaResponseFormat,
  RESPONSE_FORMAT_OPTION,
  STRUCTURED_OUTPUT_VALUE_KEY,
  StructuredOutputAdvisor,
  type StructuredOutputOptions,
} from './structured-output-advisor.js';
