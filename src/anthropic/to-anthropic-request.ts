import type { CompiledTool } from '../internal/tool-schema-compiler-cache.js';
import {
  type AssistantMessage,
  describeToolResultPart,
  type Media,
  type MediaPartSource,
  type Message,
  type ToolResultPart,
} from '../messages/index.js';
import type { ToolChoice } from '../model/index.js';
import type { AnthropicChatOptions, AnthropicThinking } from './anthropic-chat-options.js';
import type {
  AnthropicContentBlockParam,
  AnthropicMessageParam,
  AnthropicMessagesRequest,
  AnthropicThinkingBlock,
  AnthropicToolChoice,
  AnthropicToolParam,
  AnthropicToolResultBlock,
} from './anthropic-wire.js';

/** Request-level settings that do not come from the prompt's options. */
export interface AnthropicRequestSettings {
  stream: boolean;
  defaultModel: string;
  /** `max_tokens` when the options set none (the API requires it). */
  defaultMaxTokens: number;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Converts toolloop messages to a Messages API `system` text and `messages`. System messages are
 * joined into `system` (the API has no system role). Each assistant message becomes its thinking
 * blocks (kept in `metadata.thinking`), its text and one `tool_use` block per call, ids kept. Tool
 * responses become `tool_result` blocks in order, with `is_error: true` for error results; the
 * results of one batch, and consecutive messages of the same role, share one message, and
 * `tool_result` blocks come first in their user message as the API requires.
 */
export function toAnthropicMessages(messages: readonly Message[]): {
  system: string | undefined;
  messages: AnthropicMessageParam[];
} {
  const systemTexts: string[] = [];
  const turns: { role: 'user' | 'assistant'; content: AnthropicContentBlockParam[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.text !== '') systemTexts.push(message.text);
        break;
      case 'user': {
        const blocks: AnthropicContentBlockParam[] = [];
        if (message.text !== '') blocks.push({ type: 'text', text: message.text });
        for (const media of message.media ?? []) blocks.push(mediaBlock(media));
        push('user', blocks);
        break;
      }
      case 'assistant':
        push('assistant', assistantBlocks(message));
        break;
      case 'tool':
        push(
          'user',
          message.responses.map((response) => ({
            type: 'tool_result',
            tool_use_id: response.id,
            content:
              response.content === undefined || response.isError
                ? response.responseData
                : toolResultBlocks(response.content),
            ...(response.isError ? { is_error: true } : {}),
          })),
        );
        break;
    }
  }
  const converted: AnthropicMessageParam[] = turns.map((turn) => {
    const content =
      turn.role === 'user'
        ? [
            ...turn.content.filter((block) => block.type === 'tool_result'),
            ...turn.content.filter((block) => block.type !== 'tool_result'),
          ]
        : turn.content;
    const only = content[0];
    if (content.length === 1 && only?.type === 'text')
      return { role: turn.role, content: only.text };
    return { role: turn.role, content };
  });
  return {
    system: systemTexts.length > 0 ? systemTexts.join('\n\n') : undefined,
    messages: converted,
  };
}

/** Builds the Messages API request body for merged options and compiled tools. */
export function toAnthropicRequest(
  messages: readonly Message[],
  options: AnthropicChatOptions,
  tools: readonly CompiledTool[],
  settings: AnthropicRequestSettings,
): AnthropicMessagesRequest {
  const converted = toAnthropicMessages(messages);
  const request: AnthropicMessagesRequest = {
    model: typeof options.model === 'string' ? options.model : settings.defaultModel,
    max_tokens:
      typeof options.maxTokens === 'number' ? options.maxTokens : settings.defaultMaxTokens,
    messages: converted.messages,
  };
  if (converted.system !== undefined) request.system = converted.system;
  if (tools.length > 0) {
    request.tools = tools.map(({ definition, compiled }) => ({
      name: definition.name,
      description: definition.description,
      input_schema: compiled.schema as AnthropicToolParam['input_schema'],
      ...(compiled.strict ? { strict: true } : {}),
    }));
    const choice = anthropicToolChoice(options.toolChoice, options.parallelToolCalls);
    if (choice) request.tool_choice = choice;
  }
  if (typeof options.temperature === 'number') request.temperature = options.temperature;
  if (typeof options.topP === 'number') request.top_p = options.topP;
  if (typeof options.topK === 'number') request.top_k = options.topK;
  if (typeof options.stop === 'string') request.stop_sequences = [options.stop];
  else if (Array.isArray(options.stop)) request.stop_sequences = options.stop as string[];
  const format = options.responseFormat;
  if (format?.type === 'json_schema' && typeof format.schema === 'object' && format.schema) {
    request.output_config = { format: { type: 'json_schema', schema: format.schema } };
  }
  if (options.thinking !== undefined) request.thinking = anthropicThinking(options.thinking);
  if (options.cacheControl !== undefined) {
    request.cache_control =
      options.cacheControl.ttl === undefined
        ? { type: 'ephemeral' }
        : { type: 'ephemeral', ttl: options.cacheControl.ttl };
  }
  if (settings.stream) request.stream = true;
  const extraBody = options.extraBody;
  if (typeof extraBody === 'object' && extraBody !== null) Object.assign(request, extraBody);
  return request;
}

function anthropicThinking(thinking: AnthropicThinking): AnthropicMessagesRequest['thinking'] {
  if (thinking.type === 'disabled') return { type: 'disabled' };
  const display = thinking.display === undefined ? {} : { display: thinking.display };
  if (thinking.type === 'adaptive') return { type: 'adaptive', ...display };
  return { type: 'enabled', budget_tokens: thinking.budgetTokens, ...display };
}

function anthropicToolChoice(
  choice: ToolChoice | undefined,
  parallel: unknown,
): AnthropicToolChoice | undefined {
  const disable = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...disable } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...disable };
  if (choice === 'required') return { type: 'any', ...disable };
  return { type: 'tool', name: choice.name, ...disable };
}

function assistantBlocks(message: AssistantMessage): AnthropicContentBlockParam[] {
  const blocks: AnthropicContentBlockParam[] = [];
  const thinking = message.metadata?.thinking;
  if (Array.isArray(thinking)) {
    for (const block of thinking) if (isThinkingBlock(block)) blocks.push(block);
  }
  if (message.text) blocks.push({ type: 'text', text: message.text });
  for (const call of message.toolCalls) {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: toolInput(call.arguments),
    });
  }
  return blocks;
}

/**
 * The `input` object of a `tool_use` block. Arguments that are not a JSON object (a call cut off
 * by the output limit, which was never executed) are sent as `{}`: the API accepts only objects,
 * and the matching error result already tells the model what happened. Arguments a server sent
 * as an object rather than text (refused, never run) are sent back as that object.
 */
function toolInput(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') {
    return typeof text === 'object' && text !== null && !Array.isArray(text)
      ? (text as Record<string, unknown>)
      : {};
  }
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // falls through to the empty object
  }
  return {};
}

function isThinkingBlock(value: unknown): value is AnthropicThinkingBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  return (
    (block.type === 'thinking' &&
      typeof block.thinking === 'string' &&
      typeof block.signature === 'string') ||
    (block.type === 'redacted_thinking' && typeof block.data === 'string')
  );
}

/**
 * The blocks of a `tool_result` with content parts: text as text blocks, images (`image/jpeg`,
 * `png`, `gif`, `webp`, inline or by `https:` URL) as image blocks, PDFs and text documents as
 * document blocks (a file's name as the document's title). What the Messages API cannot take in
 * a tool result (audio, other file types, resource links) becomes a text block describing the
 * part, so the model knows it was there.
 */
export function toolResultBlocks(parts: readonly ToolResultPart[]): AnthropicToolResultBlock[] {
  return parts.map((part): AnthropicToolResultBlock => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image': {
        const mime = part.mediaType.toLowerCase();
        if (!IMAGE_TYPES.has(mime)) break;
        const source = mediaSource(part);
        if (source === undefined) break;
        return source.type === 'url'
          ? { type: 'image', source }
          : {
              type: 'image',
              source: { type: 'base64', media_type: mime as 'image/png', data: source.data },
            };
      }
      case 'file': {
        const mime = part.mediaType.toLowerCase().split(';')[0]?.trim() ?? '';
        const title = part.filename === undefined ? {} : { title: part.filename };
        if (typeof part.text === 'string') {
          return {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: part.text },
            ...title,
          };
        }
        const source = mediaSource(part);
        if (source === undefined) break;
        if (source.type === 'url' && mime === 'application/pdf') {
          return { type: 'document', source, ...title };
        }
        if (source.type === 'base64' && mime === 'application/pdf') {
          return {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: source.data },
            ...title,
          };
        }
        if (source.type === 'base64' && mime === 'text/plain') {
          return {
            type: 'document',
            source: {
              type: 'text',
              media_type: 'text/plain',
              data: Buffer.from(source.data, 'base64').toString('utf8'),
            },
            ...title,
          };
        }
        break;
      }
      default:
        break;
    }
    return {
      type: 'text',
      text: `${describeToolResultPart(part)} (not sent: the Messages API takes no ${part.type === 'resource-link' ? 'resource link' : `${part.type} of this type`} in a tool result)`,
    };
  });
}

/** A part's bytes as base64, or its `https:` URL; `undefined` for a `data:` URL not in base64. */
function mediaSource(
  part: MediaPartSource,
): { type: 'base64'; data: string } | { type: 'url'; url: string } | undefined {
  if (typeof part.data === 'string') return { type: 'base64', data: part.data };
  const url = part.url ?? '';
  const inline = /^data:[^,]*;base64,(.*)$/is.exec(url);
  if (inline !== null) return { type: 'base64', data: inline[1] as string };
  if (/^https:/i.test(url)) return { type: 'url', url };
  return undefined;
}

function mediaBlock(media: Media): AnthropicContentBlockParam {
  const mime = media.mimeType.toLowerCase();
  const isUrl = /^https?:/i.test(media.data);
  const base64 = /^data:[^;,]*;base64,(.*)$/is.exec(media.data)?.[1] ?? media.data;
  if (mime.startsWith('image/')) {
    if (isUrl) return { type: 'image', source: { type: 'url', url: media.data } };
    return {
      type: 'image',
      source: {
        type: 'base64',
        media_type: (IMAGE_TYPES.has(mime) ? mime : 'image/png') as 'image/png',
        data: base64,
      },
    };
  }
  if (isUrl) return { type: 'document', source: { type: 'url', url: media.data } };
  if (mime === 'text/plain') {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: media.data },
    };
  }
  return {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: base64 },
  };
}
