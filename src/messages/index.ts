export type {
  AssistantMessage,
  Media,
  Message,
  MessageRole,
  Metadata,
  SystemMessage,
  ToolCall,
  ToolResponse,
  ToolResponseMessage,
  UserMessage,
} from './message.js';
export {
  assistantMessage,
  systemMessage,
  toolCall,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from './message-factories.js';
export {
  isAssistantMessage,
  isSystemMessage,
  isToolResponseMessage,
  isUserMessage,
  messageHasToolCalls,
} from './message-guards.js';
export {
  assertSendableMessages,
  messageProblem,
  messageShapeProblem,
} from './message-problem.js';
export { assertToolCallsAnswered } from './tool-call-pairing.js';
export {
  type AudioPart,
  base64ByteLength,
  describeToolResultPart,
  type FilePart,
  formatByteSize,
  type ImagePart,
  type MediaPartSource,
  type ResourceLinkPart,
  summarizeToolResultParts,
  type TextPart,
  type ToolResultPart,
  type ToolResultPartSummary,
  type ToolResultPartType,
  toolResultPartBytes,
  toolResultPartProblem,
  toolResultPartsText,
} from './tool-result-part.js';
