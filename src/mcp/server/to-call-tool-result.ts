import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResultPart } from '../../messages/index.js';
import type { ToolResult } from '../../tools/index.js';

type McpBlock = CallToolResult['content'][number];

/**
 * What a served tool's `execute` resolved to, as the MCP result its clients read: text as one
 * text block; a {@link ToolResult}'s parts as MCP blocks (see {@link toMcpBlock}), its text as
 * the one block when it has no parts; `structuredContent` as it is (the text block then holds
 * its JSON, for clients that read only text, as MCP recommends).
 */
export function toCallToolResult(value: string | ToolResult): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const parts = value.content ?? [];
  const content: McpBlock[] =
    parts.length > 0 ? parts.map(toMcpBlock) : [{ type: 'text', text: value.text }];
  const structured = value.structuredContent;
  return structured === undefined
    ? { content }
    : { content, structuredContent: structured as Record<string, unknown> };
}

/**
 * A tool result part as an MCP content block: text → text; an image or audio given inline (or
 * as a `data:` URL) → an image or audio block; one given by `https:` URL → a resource link to it;
 * a file → an embedded resource (its text, or its bytes as a blob; a file given by URL → a
 * resource link); a resource link → a resource link.
 */
export function toMcpBlock(part: ToolResultPart): McpBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'resource-link':
      return {
        type: 'resource_link',
        uri: part.uri,
        name: part.name ?? part.uri,
        ...(part.title === undefined ? {} : { title: part.title }),
        ...(part.description === undefined ? {} : { description: part.description }),
        ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }),
      };
    default: {
      const data = part.data ?? /^data:[^,]*;base64,(.*)$/is.exec(part.url ?? '')?.[1];
      const name = part.type === 'file' ? (part.filename ?? part.uri ?? part.type) : part.type;
      const uri = part.uri ?? `toolloop:${part.type}/${encodeURIComponent(name)}`;
      if (part.type === 'file' && part.text !== undefined) {
        return { type: 'resource', resource: { uri, mimeType: part.mediaType, text: part.text } };
      }
      if (data === undefined) {
        return {
          type: 'resource_link',
          uri: part.url ?? uri,
          name,
          mimeType: part.mediaType,
        };
      }
      if (part.type === 'file') {
        return { type: 'resource', resource: { uri, mimeType: part.mediaType, blob: data } };
      }
      return { type: part.type, data, mimeType: part.mediaType };
    }
  }
}
