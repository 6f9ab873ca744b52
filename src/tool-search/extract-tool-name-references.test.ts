import { describe, expect, it } from 'vitest';
import { toolResponse, toolResponseMessage, userMessage } from '../messages/index.js';
import { extractToolNameReferences } from './extract-tool-name-references.js';

const search = (id: string, data: string, isError = false) =>
  toolResponse(id, 'toolSearchTool', data, isError);

describe('extractToolNameReferences', () => {
  const messages = [
    userMessage('hi'),
    toolResponseMessage([search('1', '["a","b"]'), search('2', '["c"]')]),
    toolResponseMessage([toolResponse('3', 'a', '["zzz"]')]),
    toolResponseMessage([search('4', '["d","a"]')]),
  ];

  it('accumulates every search result in order of discovery, without repeats', () => {
    expect(extractToolNameReferences(messages, true)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('without accumulation keeps only the last message holding searches', () => {
    expect(extractToolNameReferences(messages, false)).toEqual(['d', 'a']);
    expect(extractToolNameReferences(messages.slice(0, 3), false)).toEqual(['a', 'b', 'c']);
  });

  it("reads the search tool's {found} objects, already offered names included", () => {
    const found = [
      toolResponseMessage([search('1', '{"found":["a","b"],"alreadyOffered":[]}')]),
      toolResponseMessage([search('2', '{"found":["b","c"],"alreadyOffered":["b"]}')]),
    ];
    expect(extractToolNameReferences(found, true)).toEqual(['a', 'b', 'c']);
    expect(extractToolNameReferences(found, false)).toEqual(['b', 'c']);
  });

  it('matches the search tool name case-insensitively', () => {
    const lower = toolResponseMessage([toolResponse('1', 'TOOLSEARCHTOOL', '["x"]')]);
    expect(extractToolNameReferences([lower], true)).toEqual(['x']);
  });

  it('skips error responses and data that is not an array of strings', () => {
    const odd = toolResponseMessage([
      search('1', 'Exception occurred in tool: toolSearchTool', true),
      search('2', 'not json'),
      search('3', '{"a":1}'),
      search('4', '[1,"ok",null]'),
      search('5', '{"found":"x"}'),
      search('6', 'null'),
    ]);
    expect(extractToolNameReferences([odd], true)).toEqual(['ok']);
  });
});
