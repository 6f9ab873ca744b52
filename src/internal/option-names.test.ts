import { describe, expect, it } from 'vitest';
import { ChatClient } from '../client/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import { ScriptedChatModel } from '../testing/index.js';
import { createToolCallingManager } from '../tool-calling/create-tool-calling-manager.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import { Bm25ToolIndex } from '../tool-search/bm25-tool-index.js';
import { HybridToolIndex } from '../tool-search/hybrid-tool-index.js';
import { LexicalToolIndex } from '../tool-search/lexical-tool-index.js';
import { ToolSearchToolCallingAdvisor } from '../tool-search/tool-search-tool-calling-advisor.js';
import { VectorToolIndex } from '../tool-search/vector-tool-index.js';
import { closestName } from './edit-distance.js';
import { rejectUnknownOptions } from './option-names.js';

const embeddingModel = {
  dimensions: () => 2,
  embed: async (texts: string[]) => texts.map(() => [1, 0]),
};

// Untyped, as plain JavaScript or options read from a file would reach them.
const untyped = (options: Record<string, unknown>) => options as never;

describe('a misspelt option', () => {
  it.each([
    [
      'ChatClient',
      () => ChatClient.create(new ScriptedChatModel([]), untyped({ tols: [] })),
      'tools',
    ],
    [
      'createToolCallingManager',
      () => createToolCallingManager(untyped({ maxConcurency: 2 })),
      'maxConcurrency',
    ],
    [
      'ToolCallingAdvisor',
      () => new ToolCallingAdvisor(untyped({ maxIteration: 3 })),
      'maxIterations',
    ],
    [
      'ToolSearchToolCallingAdvisor',
      () => new ToolSearchToolCallingAdvisor(untyped({ toolIdex: {} })),
      'toolIndex',
    ],
    [
      'VectorToolIndex',
      () => new VectorToolIndex(untyped({ embeddingModel, batchsize: 8 })),
      'batchSize',
    ],
    [
      'HybridToolIndex',
      () => new HybridToolIndex(untyped({ embeddingModel, weigths: [1, 1] })),
      'weights',
    ],
    ['LexicalToolIndex', () => new LexicalToolIndex(untyped({ prefx: true })), 'prefix'],
    ['Bm25ToolIndex', () => new Bm25ToolIndex(untyped({ prefix: true })), undefined],
  ])('is refused by %s, naming the option it meant', (owner, create, meant) => {
    let error: unknown;
    try {
      create();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(new RegExp(`^${owner} has no option '`));
    if (meant !== undefined) expect((error as Error).message).toContain(`did you mean '${meant}'?`);
    else expect((error as Error).message).not.toContain('did you mean');
  });

  it('leaves every real option alone, a subclass advisor’s own ones included', () => {
    expect(() =>
      new ToolSearchToolCallingAdvisor({ maxIterations: 3, maxResults: 4 }).copy({
        maxIterations: 5,
      }),
    ).not.toThrow();
    expect(() => new ToolCallingAdvisor({ maxIterations: 2 }).copy({ order: 10 })).not.toThrow();
    expect(() =>
      ChatClient.create(new ScriptedChatModel([]), { tools: [], system: 'Be brief.' }),
    ).not.toThrow();
  });

  it('refuses options that are not an object', () => {
    expect(() => rejectUnknownOptions(42, new Set(), 'Thing')).toThrow(
      'Thing options must be an object',
    );
    expect(() => rejectUnknownOptions(undefined, new Set(), 'Thing')).not.toThrow();
  });
});

describe('closestName', () => {
  it('suggests the nearest name within three edits, never the name itself', () => {
    expect(closestName('maxConcurency', ['maxConcurrency', 'maxResultBytes'])).toBe(
      'maxConcurrency',
    );
    expect(closestName('tools', ['tools'])).toBeUndefined();
    expect(closestName('somethingElse', ['tools'])).toBeUndefined();
  });
});
