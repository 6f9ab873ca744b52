import { describe, expect, it } from 'vitest';
import { InvalidToolInputError, ToolExecutionError } from '../errors/index.js';
import {
  assistantMessage,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from '../messages/index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolSearchRequest } from './tool-reference.js';
import {
  TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY,
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
  it('has the reference name and parameters plus queries, and no context parameter', () => {
    const { definition } = toolSearchTool({ toolIndex: indexWith() });
    expect(definition.name).toBe('toolSearchTool');
    expect(definition.description).toBe(TOOL_SEARCH_TOOL_DESCRIPTION);
    // Tells the model how to use it and stays shorter than the reference's 396 characters.
    expect(definition.description).toContain('queries');
    expect(definition.description).toContain('alreadyOffered');
    expect(definition.description.length).toBeLessThan(396);
    // True of every index it may search (lexical, vector, hybrid): it claims no way of matching.
    expect(definition.description).not.toMatch(/not meaning|matches words/i);
    expect(Object.keys(definition.inputSchema.properties ?? {})).toEqual([
      'query',
      'queries',
      'maxResults',
      'categoryFilter',
    ]);
    expect(definition.inputSchema.required).toEqual(['query']);
    const text = JSON.stringify(definition.inputSchema);
    expect(text).not.toMatch(/arg0|toolContext/);
  });

  it('returns the matching tool names, best first, and those already offered', async () => {
    const tool = toolSearchTool({ toolIndex: indexWith() });
    expect(await tool.call('{"query":"weather"}', context('s1'))).toBe(
      '{"found":["weatherHistory","weatherTool"],"alreadyOffered":[]}',
    );
    expect(await tool.call('{"query":"nothing matches this"}', context('s1'))).toBe(
      '{"found":[],"alreadyOffered":[]}',
    );
    const offered = {
      context: {
        [TOOL_SEARCH_TOOL_SESSION_ID_KEY]: 's1',
        [TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY]: ['weatherTool', 'calculatorTool'],
      },
    };
    expect(JSON.parse(await tool.call('{"query":"weather"}', offered))).toEqual({
      found: ['weatherHistory', 'weatherTool'],
      alreadyOffered: ['weatherTool'],
    });
  });

  it('without the advisor, reads the tools already offered from the conversation', async () => {
    const tool = toolSearchTool({ toolIndex: indexWith() });
    const messages = [
      userMessage('weather?'),
      assistantMessage(null, [{ id: 'a', name: 'toolSearchTool', arguments: '{"query":"x"}' }]),
      toolResponseMessage([
        toolResponse('a', 'toolSearchTool', '{"found":["weatherHistory"],"alreadyOffered":[]}'),
      ]),
    ];
    const result = await tool.call('{"query":"weather"}', { ...context('s1'), messages });
    expect(JSON.parse(result).alreadyOffered).toEqual(['weatherHistory']);
  });

  it('searches every phrasing and fuses the rankings, a tool found by several first', async () => {
    const index = new RecordingIndex();
    index.indexTools('s1', [
      { toolName: 'wire_transfer', summary: 'Send a wire transfer to a bank account' },
      { toolName: 'pay_vendor_bill', summary: 'Pay a supplier invoice' },
      { toolName: 'vendor_directory', summary: 'List vendor contacts' },
    ]);
    const tool = toolSearchTool({ toolIndex: index, maxResults: 2 });
    const result = JSON.parse(
      await tool.call(
        '{"query":"vendor","queries":["pay supplier","bill payment","vendor"," "]}',
        context('s1'),
      ),
    );
    // Blank and repeated phrasings are dropped; each search asks for more than the final count.
    expect(index.requests.map((r) => [r.query, r.maxResults])).toEqual([
      ['vendor', 20],
      ['pay supplier', 20],
      ['bill payment', 20],
    ]);
    expect(result.found).toEqual(['pay_vendor_bill', 'vendor_directory']);
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
    expect(JSON.parse(await tool.call('{"query":"weather"}', context('s1'))).found).toEqual([
      'weatherHistory',
    ]);
  });

  it('rejects bad arguments with JSON-pointer issues', async () => {
    const tool = toolSearchTool({ toolIndex: indexWith() });
    const error = await tool
      .call('{"maxResults":0,"categoryFilter":5,"extra":1,"queries":["a",2]}', context('s1'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidToolInputError);
    expect(error.issues).toEqual([
      { path: '/query', message: 'is required' },
      { path: '/queries/1', message: 'must be string' },
      { path: '/maxResults', message: 'must be an integer >= 1' },
      { path: '/categoryFilter', message: 'must be string' },
      { path: '/extra', message: 'is not an allowed property' },
    ]);
    await expect(tool.call('not json', context('s1'))).rejects.toBeInstanceOf(
      InvalidToolInputError,
    );
    const tooMany = await tool
      .call(JSON.stringify({ query: 'a', queries: ['b', 'c', 'd', 'e', 'f', 'g'] }), context('s1'))
      .catch((e) => e);
    expect(tooMany.issues).toEqual([{ path: '/queries', message: 'must have at most 5 items' }]);
    const notArray = await tool.call('{"query":"a","queries":"b"}', context('s1')).catch((e) => e);
    expect(notArray.issues).toEqual([{ path: '/queries', message: 'must be array' }]);
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
