import { InvalidArgumentError } from '../errors/index.js';
import type { CompiledTool } from '../internal/tool-schema-compiler-cache.js';
import { isRecord } from '../internal/wire-reader.js';
import {
  type AssistantMessage,
  describeToolResultPart,
  type Media,
  type Message,
  type ToolCall,
  type ToolResultPart,
} from '../messages/index.js';
import type { ToolChoice } from '../model/index.js';
import type { OpenAiResponsesChatOptions } from './openai-responses-chat-options.js';
import type {
  ResponsesInputContent,
  ResponsesInputItem,
  ResponsesOutputContent,
  ResponsesReasoningItem,
  ResponsesRequest,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from './openai-responses-wire.js';
import { argumentsText } from './to-openai-request.js';

/** Request-level settings that do not come from the prompt's options. */
export interface OpenAiResponsesRequestSettings {
  stream: boolean;
  /** Model name used when the options name none. */
  defaultModel: string;
}

const REASONING_EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
const REASONING_SUMMARIES = new Set(['auto', 'concise', 'detailed']);
const VERBOSITIES = new Set(['low', 'medium', 'high']);

/**
 * Converts toolloop messages to Responses API input items. An assistant message goes back as the
 * output items it came from, in their order (`metadata.responseItems`: reasoning items with
 * their encrypted content, the message by its id, each function call by its `call_id` with its
 * item id), so a reasoning model continues its chain of thought after the tool results; a message
 * without that record (another provider's, or edited since) goes back as its text and its calls.
 * Each tool response becomes a `function_call_output`, error results included.
 */
export function toOpenAiResponsesInput(messages: readonly Message[]): ResponsesInputItem[] {
  const input: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        input.push({ role: 'system', content: message.text });
        break;
      case 'user':
        if (message.media && message.media.length > 0) {
          const content: ResponsesInputContent[] = [];
          if (message.text !== '') content.push({ type: 'input_text', text: message.text });
          for (const media of message.media) content.push(mediaContent(media));
          input.push({ role: 'user', content });
        } else {
          input.push({ role: 'user', content: message.text });
        }
        break;
      case 'assistant':
        input.push(...assistantItems(message));
        break;
      case 'tool':
        for (const response of message.responses) {
          input.push({
            type: 'function_call_output',
            call_id: response.id,
            output:
              response.content === undefined || response.isError
                ? response.responseData
                : functionOutputContent(response.content),
          });
        }
        break;
    }
  }
  return input;
}

/**
 * The `output` of a `function_call_output` with content parts: text as `input_text`, images as
 * `input_image` (a `data:` or `https:` URL), files as `input_file` (inline data as a `data:` URL,
 * or an `https:` URL). What the API cannot take there (audio, resource links) is described in an
 * `input_text`, so the model knows it was there.
 */
export function functionOutputContent(parts: readonly ToolResultPart[]): ResponsesOutputContent[] {
  return parts.map((part): ResponsesOutputContent => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    if (part.type === 'image' || part.type === 'file') {
      const url = part.data !== undefined ? `data:${part.mediaType};base64,${part.data}` : part.url;
      const name =
        part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {};
      if (part.type === 'image' && url !== undefined) {
        return { type: 'input_image', image_url: url, detail: 'auto' };
      }
      if (part.type === 'file' && url !== undefined) {
        return url.startsWith('data:')
          ? { type: 'input_file', file_data: url, ...name }
          : { type: 'input_file', file_url: url, ...name };
      }
      if (part.type === 'file' && part.text !== undefined) {
        const data = Buffer.from(part.text, 'utf8').toString('base64');
        return { type: 'input_file', file_data: `data:${part.mediaType};base64,${data}`, ...name };
      }
    }
    return {
      type: 'input_text',
      text: `${describeToolResultPart(part)} (not sent: the Responses API takes no ${part.type === 'resource-link' ? 'resource link' : part.type} in a function call output)`,
    };
  });
}

/** Builds the Responses API request body for merged options and compiled tools. */
export function toOpenAiResponsesRequest(
  messages: readonly Message[],
  options: OpenAiResponsesChatOptions,
  tools: readonly CompiledTool[],
  settings: OpenAiResponsesRequestSettings,
): ResponsesRequest {
  const model = typeof options.model === 'string' ? options.model : settings.defaultModel;
  const store = options.store === true;
  const { previousResponseId, sent } = continuation(messages, options.previousResponseId);
  const request: ResponsesRequest = { model, input: toOpenAiResponsesInput(sent), store };
  if (previousResponseId !== undefined) request.previous_response_id = previousResponseId;
  if (tools.length > 0) {
    request.tools = tools.map(({ definition, compiled }) => ({
      type: 'function',
      name: definition.name,
      description: definition.description,
      parameters: compiled.schema,
      strict: compiled.strict,
    }));
    if (typeof options.parallelToolCalls === 'boolean') {
      request.parallel_tool_calls = options.parallelToolCalls;
    }
    // Without tools the API refuses any tool_choice.
    if (options.toolChoice !== undefined) request.tool_choice = toolChoice(options.toolChoice);
  }
  const reasoning = reasoningOf(options);
  if (reasoning) request.reasoning = reasoning;
  const encrypted =
    typeof options.includeEncryptedReasoning === 'boolean'
      ? options.includeEncryptedReasoning
      : !store && (reasoning !== undefined || isReasoningModel(model));
  if (encrypted) request.include = ['reasoning.encrypted_content'];
  const format = textFormat(options.responseFormat);
  const verbosity = oneOf(options.verbosity, VERBOSITIES, 'verbosity') as
    | 'low'
    | 'medium'
    | 'high'
    | undefined;
  if (format || verbosity) {
    request.text = { ...(format ? { format } : {}), ...(verbosity ? { verbosity } : {}) };
  }
  if (typeof options.temperature === 'number') request.temperature = options.temperature;
  if (typeof options.topP === 'number') request.top_p = options.topP;
  if (typeof options.maxTokens === 'number') request.max_output_tokens = options.maxTokens;
  if (settings.stream) request.stream = true;
  const extraBody = options.extraBody;
  if (isRecord(extraBody)) Object.assign(request, extraBody);
  return request;
}

/**
 * With `previousResponseId`, the messages the stored response already holds are not sent again:
 * only those after the assistant message of that response (`metadata.responseId`; `'auto'`: the
 * last assistant message that has one). An explicit id the prompt does not hold is sent with
 * every message, as the caller chose.
 */
function continuation(
  messages: readonly Message[],
  option: unknown,
): { previousResponseId: string | undefined; sent: readonly Message[] } {
  if (option === undefined || option === null)
    return { previousResponseId: undefined, sent: messages };
  if (typeof option !== 'string' || option === '') {
    throw new InvalidArgumentError("previousResponseId must be a response id ('resp_…') or 'auto'");
  }
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    const id = message.role === 'assistant' ? message.metadata?.responseId : undefined;
    if (typeof id === 'string' && id !== '' && (option === 'auto' || option === id)) {
      return { previousResponseId: id, sent: messages.slice(index + 1) };
    }
  }
  return option === 'auto'
    ? { previousResponseId: undefined, sent: messages }
    : { previousResponseId: option, sent: messages };
}

function reasoningOf(
  options: OpenAiResponsesChatOptions,
): ResponsesRequest['reasoning'] | undefined {
  const effort = oneOf(options.reasoningEffort, REASONING_EFFORTS, 'reasoningEffort');
  const summary = oneOf(options.reasoningSummary, REASONING_SUMMARIES, 'reasoningSummary');
  if (effort === undefined && summary === undefined) return undefined;
  return {
    ...(effort === undefined ? {} : { effort: effort as 'low' }),
    ...(summary === undefined ? {} : { summary: summary as 'auto' }),
  };
}

function oneOf(value: unknown, allowed: ReadonlySet<string>, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && allowed.has(value)) return value;
  throw new InvalidArgumentError(`${name} must be one of ${[...allowed].join(', ')}`);
}

/**
 * Whether a model name is one of OpenAI's reasoning models (o-series, gpt-5 except its chat
 * variants, codex), whose reasoning can be returned encrypted; others refuse the request.
 */
function isReasoningModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return /^(o\d|gpt-5|codex)/.test(name) && !/-chat/.test(name);
}

function toolChoice(choice: ToolChoice): ResponsesToolChoice {
  if (typeof choice === 'string') return choice;
  return { type: 'function', name: choice.name };
}

function textFormat(format: unknown): ResponsesTextFormat | undefined {
  if (!isRecord(format)) return undefined;
  if (format.type === 'json_object' || format.type === 'text') return { type: format.type };
  if (format.type !== 'json_schema') return undefined;
  if (!isRecord(format.schema)) {
    throw new InvalidArgumentError('responseFormat of type json_schema needs a schema object');
  }
  return {
    type: 'json_schema',
    name: typeof format.name === 'string' && format.name !== '' ? format.name : 'response',
    schema: format.schema,
    ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
  };
}

/** The input items of one assistant message: its recorded output items, else its text and calls. */
function assistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const records = message.metadata?.responseItems;
  const replayed = Array.isArray(records) ? replayItems(message, records) : undefined;
  if (replayed) return replayed;
  const items: ResponsesInputItem[] = [];
  // An edited message keeps its reasoning items, before what it says now.
  if (Array.isArray(records)) {
    for (const record of records) {
      const reasoning = reasoningItem(record);
      if (reasoning) items.push(reasoning);
    }
  }
  if (message.text) items.push({ role: 'assistant', content: message.text });
  for (const call of message.toolCalls) items.push(functionCallItem(call));
  return items;
}

/**
 * The recorded output items with the message's text and calls in their places, or `undefined`
 * when the record no longer matches the message (its text length or its calls differ).
 */
function replayItems(
  message: AssistantMessage,
  records: readonly unknown[],
): ResponsesInputItem[] | undefined {
  const text = message.text ?? '';
  const calls = new Map(message.toolCalls.map((call) => [call.id, call]));
  if (calls.size !== message.toolCalls.length) return undefined;
  const items: ResponsesInputItem[] = [];
  let offset = 0;
  for (const record of records) {
    if (!isRecord(record) || typeof record.type !== 'string') return undefined;
    if (record.type === 'reasoning') {
      const reasoning = reasoningItem(record);
      if (!reasoning) return undefined;
      items.push(reasoning);
    } else if (record.type === 'message') {
      const length = record.textLength;
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) return undefined;
      if (offset + length > text.length) return undefined;
      const slice = text.slice(offset, offset + length);
      offset += length;
      const phase =
        record.phase === 'commentary' || record.phase === 'final_answer' ? record.phase : undefined;
      if (typeof record.id === 'string' && record.id !== '') {
        items.push({
          type: 'message',
          role: 'assistant',
          id: record.id,
          status: 'completed',
          content: [{ type: 'output_text', text: slice, annotations: [] }],
          ...(phase ? { phase } : {}),
        });
      } else if (slice !== '') {
        items.push({ role: 'assistant', content: slice, ...(phase ? { phase } : {}) });
      }
    } else if (record.type === 'function_call') {
      const call = typeof record.call_id === 'string' ? calls.get(record.call_id) : undefined;
      if (!call) return undefined;
      calls.delete(call.id);
      items.push(functionCallItem(call));
    } else {
      // A hosted tool's item (web search, MCP, …) goes back as it came.
      items.push(record as unknown as ResponsesInputItem);
    }
  }
  if (offset !== text.length || calls.size > 0) return undefined;
  return items;
}

function reasoningItem(record: unknown): ResponsesReasoningItem | undefined {
  if (!isRecord(record) || record.type !== 'reasoning') return undefined;
  if (typeof record.id !== 'string' || record.id === '' || !Array.isArray(record.summary)) {
    return undefined;
  }
  const item: ResponsesReasoningItem = {
    type: 'reasoning',
    id: record.id,
    summary: record.summary as ResponsesReasoningItem['summary'],
  };
  if (Array.isArray(record.content)) {
    item.content = record.content as NonNullable<ResponsesReasoningItem['content']>;
  }
  if (typeof record.encrypted_content === 'string') {
    item.encrypted_content = record.encrypted_content;
  }
  return item;
}

function functionCallItem(call: ToolCall): ResponsesInputItem {
  const itemId = call.metadata?.itemId;
  return {
    type: 'function_call',
    call_id: call.id,
    name: call.name,
    arguments: argumentsText(call.arguments),
    ...(typeof itemId === 'string' && itemId !== '' ? { id: itemId } : {}),
  };
}

function mediaContent(media: Media): ResponsesInputContent {
  const remote = /^https?:/i.test(media.data);
  const url =
    remote || /^data:/i.test(media.data)
      ? media.data
      : `data:${media.mimeType};base64,${media.data}`;
  const mime = media.mimeType.toLowerCase();
  if (mime.startsWith('image/')) return { type: 'input_image', image_url: url, detail: 'auto' };
  if (remote) return { type: 'input_file', file_url: url };
  const extension = /\/([a-z0-9.+-]+)$/.exec(mime)?.[1] ?? 'bin';
  return { type: 'input_file', file_data: url, filename: `attachment.${extension}` };
}
