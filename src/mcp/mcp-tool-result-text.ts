import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The text the model reads for an MCP tool result (the same mapping for `isError` results, which
 * reach the model as error results):
 *
 * - only text blocks (or none) and `structuredContent` → the compact JSON of `structuredContent`
 *   (servers send the same data as text only for older clients), except in an `isError` result
 *   with some text: that text is the error's message, which the structured data does not repeat;
 * - only text blocks → their texts, joined by a line break (`[]` when there are none);
 * - any other block → a compact JSON array with one object per block: `{type:'text', text}`,
 *   `{type:'image'|'audio', mimeType, data}` (base64, as sent), `{type:'resource_link', uri, name,
 *   title?, description?, mimeType?}`, `{type:'resource', uri, mimeType?, text | blob}`; a block of
 *   an unknown type is kept as sent; `structuredContent`, when present, is appended as
 *   `{type:'structured', data}`. Block annotations and `_meta` are left out.
 */
export function mcpToolResultText(result: CallToolResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const structured = result.structuredContent;
  if (blocks.every((block) => block.type === 'text')) {
    const explained =
      result.isError === true && blocks.some((block) => (block as { text: string }).text.trim());
    if (structured !== undefined && !explained) return JSON.stringify(structured);
    if (blocks.length === 0) return '[]';
    return blocks.map((block) => (block as { text: string }).text).join('\n');
  }
  const mapped: unknown[] = blocks.map(modelView);
  if (structured !== undefined) mapped.push({ type: 'structured', data: structured });
  return JSON.stringify(mapped);
}

function modelView(block: CallToolResult['content'][number]): unknown {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: block.mimeType, data: block.data };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        name: block.name,
        ...(block.title === undefined ? {} : { title: block.title }),
        ...(block.description === undefined ? {} : { description: block.description }),
        ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
      };
    case 'resource': {
      const { uri, mimeType } = block.resource;
      const body =
        'text' in block.resource ? { text: block.resource.text } : { blob: block.resource.blob };
      return { type: 'resource', uri, ...(mimeType === undefined ? {} : { mimeType }), ...body };
    }
    default:
      return block;
  }
}
