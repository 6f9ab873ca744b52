import { describe, expect, it } from 'vitest';
import { InvalidToolInputError, ToolExecutionError } from '../errors/index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolSearchRequest } from './tool-reference.js';
import {
  TOOL_SEARCH_TOOL_DESCRIPTION,
  TOOL_SEARCH_TOOL_SESSION_ID_KEY,
  toolSearchTool,
} from './tool-search-tool.js';

const indexWith = () => {
  const index = new RegexToolIndex();
  index.indexTools('s1', [
    { toolName: 'weatherTool', summary: 'Get the weather' },
    { toolName: 'calculatorTool', summary: 'Do arithmetic' },
    { toolName: 'weatherHistory', summary: 'Past weather' },
  ]);
  return index;
};
const context = (sessionId: unknown) => ({
  context: { [TOOL_SEARCH_TOOL_SESSION_ID_KEY]: sessionId },
});

/** The real regex index, with every request it receives recorded. */
class RecordingIndex extends RegexToolIndex {
  readonly requests: ToolSearchRequest[] = [];
  override search(request: ToolSearchRequest) {
    this.requests.push(request);
    return super.search(request);
  }
}

describe('toolSearchTool', () => {
  it('has the reference name, description and parameters, and no context parameter', () => {
    const { definition } = toolSearchTool({ toolIndex: indexWith() });
    expect(definition.name).toBe('toolSearchTool');
    expect(definition.description).toBe(TOOL_SEARCH_TOOL_DESCRIPTION);
    expect(definition.description).toHaveLength(396);
    expect(Object.keys(definition.inputSchema.properties ?? {})).toEqual([
      'query',
      'maxResults',
      'categoryFilter',
    ]);
    expect(definition.inputSchema.required).toEqual(['query']);
    const text = JSON.stringify(definition.inputSchema);
    expect(text).not.toMatch(/arg0|toolContext/);
  });

  it('returns the matching tool names as a JSON array', async () => {
    const tool = toolSearchTool({ toolIndex: indexWith() });
    expect(await tool.call('{"query":"weather"}', context('s1'))).toBe(
      '["weatherHistory","weatherTool"]',
    );
    expect(await tool.call('{"query":"nothing matches this"}', context('s1'))).toBe('[]');
  });

  it("passes the model's maxResults and categoryFilter, else the tool's default", async () => {
    const index = new RecordingIndex();
    const tool = toolSearchTool({ toolIndex: index, maxResults: 3 });
    await tool.call('{"query":"q","maxResults":7,"categoryFilter":"finance"}', context('s1'));
    await tool.call('{"query":"q","maxResults":null}', context('s1'));
    expect(index.requests.map((r) => [r.sessionId, r.maxResults, r.categoryFilter])).toEqual([
      ['s1', 7, 'finance'],
      ['s1', 3, undefined],
    ]);
    const noDefault = toolSearchTool({ toolIndex: index });
    await noDefault.call('{"query":"q"}', context('s1'));
    expect(index.requests[2]?.maxResults).toBeUndefined();
  });

  it('returns only allowed names when given the attached tools', async () => {
    const tool = toolSearchTool({
      toolIndex: indexWith(),
      allowedToolNames: new Set(['weatherHistory']),
    });
    expect(await tool.call('{"query":"weather"}', context('s1'))).toBe('["weatherHistory"]');
  });

  it('rejects bad arguments with JSON-pointer issues', async () => {
    const tool = toolSearchTool({ toolIndex: indexWith() });
    const error = await tool
      .call('{"maxResults":0,"categoryFilter":5,"extra":1}', context('s1'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidToolInputError);
    expect(error.issues).toEqual([
      { path: '/query', message: 'is required' },
      { path: '/maxResults', message: 'must be an integer >= 1' },
      { path: '/categoryFilter', message: 'must be string' },
      { path: '/extra', message: 'is not an allowed property' },
    ]);
    await expect(tool.call('not json', context('s1'))).rejects.toBeInstanceOf(
      InvalidToolInputError,
    );
  });

  it('fails as a tool error without a session in the tool context, naming only the key', async () => {
    const tool = toolSearchTool({ toolIndex: indexWith() });
    const error = await tool
      .call('{"query":"weather"}', { context: { secret: 'v' } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.message).toContain(TOOL_SEARCH_TOOL_SESSION_ID_KEY);
    expect(error.message).not.toContain('v"');
  });

  it('turns a failing index into a tool error', async () => {
    const broken: ToolIndex = {
      indexTools() {},
      indexTool() {},
      clearIndex() {},
      search() {
        throw new Error('index offline');
      },
    };
    const error = await toolSearchTool({ toolIndex: broken })
      .call('{"query":"x"}', context('s1'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.toolName).toBe('toolSearchTool');
    expect(error.cause.message).toBe('index offline');
  });
});
