import { InvalidArgumentError } from '../errors/index.js';
import type { CompiledTool } from '../internal/tool-schema-compiler-cache.js';
import {
  describeToolResultPart,
  type Media,
  type Message,
  type ToolResultPart,
} from '../messages/index.js';
import type { ToolChoice } from '../model/index.js';
import type { OpenAiChatOptions } from './openai-chat-options.js';
import type {
  OpenAiChatRequest,
  OpenAiContentPart,
  OpenAiMessageParam,
  OpenAiResponseFormat,
  OpenAiToolChoice,
} from './openai-wire.js';

/** Request-level settings that do not come from the prompt's options. */
export interface OpenAiRequestSettings {
  stream: boolean;
  /** Ask for a final usage chunk when streaming (`stream_options.include_usage`). */
  streamUsage: boolean;
  /** Which body field carries the output limit. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Model name used when the options name none. */
  defaultModel: string;
  /** Send assistant messages' `metadata.reasoningContent` back as `reasoning_content`. */
  sendReasoningContent?: boolean;
  /** What to do with media in tool results (see `OpenAiChatModelOptions.toolResultMedia`). */
  toolResultMedia?: OpenAiToolResultMedia;
}

/**
 * Where the media of a tool result go in Chat Completions, whose tool messages take text only:
 * `'user-message'` sends them in a user message right after the batch's tool messages (the tool
 * message says so); `'error'` refuses the request with an `InvalidArgumentError` instead.
 */
export type OpenAiToolResultMedia = 'user-message' | 'error';

/**
 * Converts toolloop messages to Chat Completions messages: system and user messages one to one
 * (media as image, audio or file parts), an assistant message with its text and every tool call
 * (ids kept), and each tool response as its own `tool` message in order, error results included
 * (their text already says what went wrong). With `sendReasoningContent`, an assistant message's
 * `metadata.reasoningContent` goes back as `reasoning_content` (DeepSeek's thinking mode wants it
 * within a tool-calling turn; OpenAI itself rejects the field, so it is off by default).
 */
export function toOpenAiMessages(
  messages: readonly Message[],
  options: { sendReasoningContent?: boolean; toolResultMedia?: OpenAiToolResultMedia } = {},
): OpenAiMessageParam[] {
  const result: OpenAiMessageParam[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: message.text });
        break;
      case 'user':
        if (message.media && message.media.length > 0) {
          const parts: OpenAiContentPart[] = [];
          if (message.text !== '') parts.push({ type: 'text', text: message.text });
          for (const media of message.media) parts.push(mediaPart(media));
          result.push({ role: 'user', content: parts });
        } else {
          result.push({ role: 'user', content: message.text });
        }
        break;
      case 'assistant': {
        const param: OpenAiMessageParam = { role: 'assistant', content: message.text };
        const reasoning = message.metadata?.reasoningContent;
        if (options.sendReasoningContent && typeof reasoning === 'string') {
          param.reasoning_content = reasoning;
        }
        if (message.toolCalls.length > 0) {
          param.tool_calls = message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: argumentsText(call.arguments) },
          }));
        }
        result.push(param);
        break;
      }
      case 'tool': {
        const followUp: OpenAiContentPart[] = [];
        for (const response of message.responses) {
          if (response.content === undefined || response.isError) {
            result.push({
              role: 'tool',
              tool_call_id: response.id,
              content: response.responseData,
            });
            continue;
          }
          const media = response.content.filter((part) => mediaUserPart(part) !== undefined);
          if (media.length > 0 && options.toolResultMedia === 'error') {
            throw new InvalidArgumentError(
              `openai: messages[${index}] (tool): the result of tool '${response.name}' holds ${media.map(describeToolResultPart).join(', ')}; Chat Completions takes only text in a tool message, and toolResultMedia is 'error' (set it to 'user-message' to send media in a user message after the tool results)`,
            );
          }
          const lines: string[] = [];
          for (const part of response.content) {
            if (part.type === 'text') lines.push(part.text);
            else if (mediaUserPart(part) !== undefined) {
              lines.push(
                `${describeToolResultPart(part)} (sent in the user message after the tool results)`,
              );
            } else lines.push(describeToolResultPart(part));
          }
          result.push({ role: 'tool', tool_call_id: response.id, content: lines.join('\n') });
          if (media.length > 0) {
            followUp.push({
              type: 'text',
              text: `Content returned by tool '${response.name}' (call ${response.id}):`,
            });
            for (const part of media) followUp.push(mediaUserPart(part) as OpenAiContentPart);
          }
        }
        if (followUp.length > 0) result.push({ role: 'user', content: followUp });
        break;
      }
    }
  }
  return result;
}

/** Builds the Chat Completions request body for merged options and compiled tools. */
export function toOpenAiRequest(
  messages: readonly Message[],
  options: OpenAiChatOptions,
  tools: readonly CompiledTool[],
  settings: OpenAiRequestSettings,
): OpenAiChatRequest {
  const request: OpenAiChatRequest = {
    model: typeof options.model === 'string' ? options.model : settings.defaultModel,
    messages: toOpenAiMessages(messages, {
      sendReasoningContent: settings.sendReasoningContent,
      toolResultMedia: settings.toolResultMedia,
    }),
  };
  if (tools.length > 0) {
    request.tools = tools.map(({ definition, compiled }) => ({
      type: 'function',
      function: {
        name: definition.name,
        description: definition.description,
        parameters: compiled.schema,
        ...(compiled.strict ? { strict: true } : {}),
      },
    }));
    if (typeof options.parallelToolCalls === 'boolean') {
      request.parallel_tool_calls = options.parallelToolCalls;
    }
  }
  // Without tools the API refuses any tool_choice, 'none' included.
  if (options.toolChoice !== undefined && tools.length > 0) {
    request.tool_choice = openAiToolChoice(options.toolChoice);
  }
  if (typeof options.temperature === 'number') request.temperature = options.temperature;
  if (typeof options.topP === 'number') request.top_p = options.topP;
  if (typeof options.maxTokens === 'number') request[settings.maxTokensField] = options.maxTokens;
  if (typeof options.stop === 'string' || Array.isArray(options.stop)) {
    request.stop = options.stop as string | string[];
  }
  if (typeof options.reasoningEffort === 'string') {
    request.reasoning_effort = options.reasoningEffort;
  }
  if (typeof options.seed === 'number') request.seed = options.seed;
  const responseFormat = openAiResponseFormat(options.responseFormat);
  if (responseFormat) request.response_format = responseFormat;
  if (settings.stream) {
    request.stream = true;
    if (settings.streamUsage) request.stream_options = { include_usage: true };
  }
  const extraBody = options.extraBody;
  if (typeof extraBody === 'object' && extraBody !== null) Object.assign(request, extraBody);
  return request;
}

function openAiToolChoice(choice: ToolChoice): OpenAiToolChoice {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

/**
 * Maps the client's structured-output request (`options.responseFormat`:
 * `{ type: 'json_schema', name, schema, strict? }` or `{ type: 'json_object' }`) to
 * `response_format`.
 */
function openAiResponseFormat(format: unknown): OpenAiResponseFormat | undefined {
  if (typeof format !== 'object' || format === null) return undefined;
  const value = format as Record<string, unknown>;
  if (value.type === 'json_object' || value.type === 'text') return { type: value.type };
  if (value.type !== 'json_schema') return undefined;
  if (typeof value.schema !== 'object' || value.schema === null) {
    throw new InvalidArgumentError('responseFormat of type json_schema needs a schema object');
  }
  const name = typeof value.name === 'string' && value.name !== '' ? value.name : 'response';
  return {
    type: 'json_schema',
    json_schema: {
      name,
      schema: value.schema as Record<string, unknown>,
      ...(typeof value.strict === 'boolean' ? { strict: value.strict } : {}),
    },
  };
}

/**
 * A tool result part as a user-message content part, when Chat Completions takes it there: an
 * image (`image_url`, inline as a `data:` URL or by its `https:` URL), a PDF given inline
 * (`file`), WAV or MP3 audio given inline (`input_audio`). `undefined` for anything else.
 */
function mediaUserPart(part: ToolResultPart): OpenAiContentPart | undefined {
  if (part.type !== 'image' && part.type !== 'file' && part.type !== 'audio') return undefined;
  const mime = part.mediaType.toLowerCase().split(';')[0]?.trim() ?? '';
  const url = part.data !== undefined ? `data:${mime};base64,${part.data}` : part.url;
  if (url === undefined) return undefined;
  const inline = url.startsWith('data:');
  if (part.type === 'image') return { type: 'image_url', image_url: { url } };
  if (part.type === 'file') {
    if (mime !== 'application/pdf' || !inline) return undefined;
    return {
      type: 'file',
      file: { file_data: url, ...(part.filename === undefined ? {} : { filename: part.filename }) },
    };
  }
  const format =
    mime === 'audio/wav' || mime === 'audio/x-wav'
      ? 'wav'
      : mime === 'audio/mpeg' || mime === 'audio/mp3'
        ? 'mp3'
        : undefined;
  if (format === undefined || part.data === undefined) return undefined;
  return { type: 'input_audio', input_audio: { data: part.data, format } };
}

function mediaPart(media: Media): OpenAiContentPart {
  const url = /^(https?:|data:)/i.test(media.data)
    ? media.data
    : `data:${media.mimeType};base64,${media.data}`;
  const mime = media.mimeType.toLowerCase();
  if (mime.startsWith('image/')) return { type: 'image_url', image_url: { url } };
  if (
    (mime === 'audio/wav' || mime === 'audio/mpeg' || mime === 'audio/mp3') &&
    !url.startsWith('http')
  ) {
    return {
      type: 'input_audio',
      input_audio: { data: base64Of(media), format: mime === 'audio/wav' ? 'wav' : 'mp3' },
    };
  }
  return { type: 'file', file: { file_data: url } };
}

function base64Of(media: Media): string {
  const match = /^data:[^;,]*;base64,(.*)$/is.exec(media.data);
  return match?.[1] ?? media.data;
}

/**
 * The `arguments` text of a call sent back: `{}` for an empty text, and JSON text for a value
 * some server sent as an object (that call was refused, never run; the API takes only text).
 */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '{}' : value;
  try {
    return JSON.stringify(value) ?? '{}';
  } catch {
    return '{}';
  }
}
