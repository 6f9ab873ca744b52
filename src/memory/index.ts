export { type ChatMemory, CONVERSATION_ID } from './chat-memory.js';
export type {
  AppendOptions,
  ChatMemoryRepository,
  RetainMessages,
} from './chat-memory-repository.js';
export { InMemoryChatMemoryRepository } from './in-memory-chat-memory-repository.js';
export {
  MessageChatMemoryAdvisor,
  type MessageChatMemoryAdvisorOptions,
} from './message-chat-memory-advisor.js';
export {
  MessageWindowChatMemory,
  type MessageWindowChatMemoryOptions,
} from './message-window-chat-memory.js';
export { windowRetain } from './window-retain.js';
