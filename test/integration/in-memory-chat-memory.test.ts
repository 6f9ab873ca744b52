import { describe } from 'vitest';
import { InMemoryChatMemoryRepository } from '../../src/memory/index.js';
import { chatMemoryRepositoryContract } from './chat-memory-contract.js';

describe('InMemoryChatMemoryRepository meets the chat memory contract', () => {
  chatMemoryRepositoryContract({
    backend: 'in-memory',
    create: async (settings = {}) => ({ repository: new InMemoryChatMemoryRepository(settings) }),
  });
});
