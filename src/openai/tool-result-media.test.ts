import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/index.js';
import { toOpenAiMessages } from './to-openai-request.js';

const transcript: Message[] = [
  { role: 'user', text: 'go' },
  {
    role: 'assistant',
    text: null,
    toolCalls: [
      { id: 'c1', name: 'report', arguments: '{}' },
      { id: 'c2', name: 'plain', arguments: '{}' },
    ],
  },
  {
    role: 'tool',
    responses: [
      {
        id: 'c1',
        name: 'report',
        responseData: 'text form',
        content: [
          { type: 'text', text: 'Quarterly report' },
          { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'q.pdf' },
          { type: 'audio', mediaType: 'audio/wav', data: 'UklGRg==' },
          { type: 'file', mediaType: 'application/zip', data: 'UEsDBA==' },
          { type: 'resource-link', uri: 'https://files.test/q.xlsx', name: 'q.xlsx' },
        ],
      },
      { id: 'c2', name: 'plain', responseData: '"ok"' },
    ],
  },
];

describe('tool results with media, for Chat Completions', () => {
  it('keeps every tool message together and sends the media in one user message after them', () => {
    const messages = toOpenAiMessages(transcript) satisfies OpenAI.ChatCompletionMessageParam[];
    expect(messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [
          'Quarterly report',
          '[file q.pdf application/pdf, 5 B] (sent in the user message after the tool results)',
          '[audio audio/wav, 4 B] (sent in the user message after the tool results)',
          '[file application/zip, 4 B]',
          '[resource link https://files.test/q.xlsx (q.xlsx)]',
        ].join('\n'),
      },
      { role: 'tool', tool_call_id: 'c2', content: '"ok"' },
      {
        role: 'user',
        content: [
          { type: 'text', text: "Content returned by tool 'report' (call c1):" },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'q.pdf' },
          },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ]);
  });
});
