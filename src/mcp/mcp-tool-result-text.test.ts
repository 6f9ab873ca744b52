import { describe, expect, it } from 'vitest';
import { mcpToolResultText } from './mcp-tool-result-text.js';

describe('mcpToolResultText', () => {
  it('joins text blocks, and says [] for no content', () => {
    expect(
      mcpToolResultText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
    expect(mcpToolResultText({ content: [] })).toBe('[]');
  });

  it('prefers structuredContent over its text rendering', () => {
    expect(
      mcpToolResultText({
        content: [{ type: 'text', text: '{"t": 1}' }],
        structuredContent: { t: 1 },
      }),
    ).toBe('{"t":1}');
  });

  it("an error result's text is its message: structured content does not replace it", () => {
    const failed = {
      isError: true,
      content: [{ type: 'text' as const, text: 'Rate limit exceeded: retry after 30 s' }],
      structuredContent: { code: 429 },
    };
    expect(mcpToolResultText(failed)).toBe('Rate limit exceeded: retry after 30 s');
    expect(mcpToolResultText({ ...failed, content: [] })).toBe('{"code":429}');
  });

  it('maps images, audio, resource links and embedded resources to a JSON array, annotations left out', () => {
    const text = mcpToolResultText({
      content: [
        { type: 'text', text: 'see', annotations: { audience: ['user'] } },
        { type: 'image', data: 'aW1n', mimeType: 'image/png' },
        { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'test://t', mimeType: 'text/plain', text: 'body' } },
        { type: 'resource', resource: { uri: 'test://b', blob: 'YmxvYg==' } },
      ],
      structuredContent: { ok: true },
    });
    expect(JSON.parse(text)).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image', mimeType: 'image/png', data: 'aW1n' },
      { type: 'audio', mimeType: 'audio/wav', data: 'YXVk' },
      { type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: 'text/plain' },
      { type: 'resource', uri: 'test://t', mimeType: 'text/plain', text: 'body' },
      { type: 'resource', uri: 'test://b', blob: 'YmxvYg==' },
      { type: 'structured', data: { ok: true } },
    ]);
  });
});
