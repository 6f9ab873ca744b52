export {
  ScriptedChatModel,
  type ScriptedChatModelOptions,
  type ScriptedOutcome,
  type ScriptedTurn,
  type ScriptedTurnInfo,
} from './scripted-chat-model.js';
export {
  type ScriptedResponseOptions,
  type ScriptedToolCall,
  type StreamChunking,
  type StreamedResponse,
  streamedResponse,
  textResponse,
  toolCallResponse,
} from './scripted-response.js';
