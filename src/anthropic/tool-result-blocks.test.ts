import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { Message, ToolResultPart } from '../messages/index.js';
import { toAnthropicMessages, toolResultBlocks } from './to-anthropic-request.js';

const parts: ToolResultPart[] = [
  { type: 'text', text: 'Report' },
  { type: 'image', mediaType: 'image/webp', url: 'https://cdn.test/a.webp' },
  { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'r.pdf' },
  { type: 'file', mediaType: 'text/plain', text: 'plain notes' },
  { type: 'image', mediaType: 'image/bmp', data: 'Qk0=' },
  { type: 'audio', mediaType: 'audio/wav', data: 'UklGRg==' },
  { type: 'resource-link', uri: 'file:///logs/today.txt', name: 'today.txt' },
];

describe('tool results with parts, for the Messages API', () => {
  it('sends images and documents as blocks, and says what it cannot send', () => {
    const blocks = toolResultBlocks(parts);
    expect(blocks).toEqual([
      { type: 'text', text: 'Report' },
      { type: 'image', source: { type: 'url', url: 'https://cdn.test/a.webp' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'r.pdf',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
      {
        type: 'text',
        text: '[image image/bmp, 2 B] (not sent: the Messages API takes no image of this type in a tool result)',
      },
      {
        type: 'text',
        text: '[audio audio/wav, 4 B] (not sent: the Messages API takes no audio of this type in a tool result)',
      },
      {
        type: 'text',
        text: '[resource link file:///logs/today.txt (today.txt)] (not sent: the Messages API takes no resource link in a tool result)',
      },
    ]);
    const messages: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: null, toolCalls: [{ id: 't1', name: 'r', arguments: '{}' }] },
      { role: 'tool', responses: [{ id: 't1', name: 'r', responseData: 'x', content: parts }] },
    ];
    const request = {
      model: 'm',
      max_tokens: 10,
      messages: toAnthropicMessages(messages).messages,
    } satisfies Anthropic.MessageCreateParams;
    expect(request.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: blocks },
    ]);
  });

  it('sends an error result as its text, whatever parts it holds', () => {
    const messages: Message[] = [
      { role: 'assistant', text: null, toolCalls: [{ id: 't1', name: 'r', arguments: '{}' }] },
      {
        role: 'tool',
        responses: [{ id: 't1', name: 'r', responseData: 'failed', isError: true, content: parts }],
      },
    ];
    expect(toAnthropicMessages(messages).messages[1]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'failed', is_error: true },
    ]);
  });
});
