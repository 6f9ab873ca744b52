import { InvalidArgumentError } from '../errors/index.js';
import type { CompiledTool } from '../internal/tool-schema-compiler-cache.js';
import { isRecord } from '../internal/wire-reader.js';
import type {
  AssistantMessage,
  Media,
  Message,
  ToolCall,
  ToolResponse,
  ToolResponseMessage,
  ToolResultPart,
} from '../messages/index.js';
import type { ToolChoice } from '../model/index.js';
import type { GoogleChatOptions } from './google-chat-options.js';
import type {
  GoogleContent,
  GoogleFunctionCall,
  GoogleFunctionResponsePart,
  GoogleGenerateContentRequest,
  GoogleGenerationConfig,
  GooglePart,
  GoogleSafetySetting,
  GoogleSchema,
  GoogleThinkingConfig,
  GoogleToolConfig,
} from './google-wire.js';

const THINKING_LEVELS = new Set(['MINIMAL', 'LOW', 'MEDIUM', 'HIGH']);

/**
 * Converts toolloop messages to Gemini `contents` and a `systemInstruction`. System messages are
 * joined into the system instruction. An assistant message becomes a `model` turn whose parts are
 * the ones it came from (`metadata.geminiParts`), each thought signature on its own part and each
 * call's signature on its `functionCall` part; a message without that record (another provider's,
 * or edited since) becomes its text and its calls. Tool results become `functionResponse` parts
 * of a `user` turn, in the order of the calls they answer (Gemini pairs them by position and
 * name): `{ output }`, or `{ error }` for an error result (the result's JSON value, or its text),
 * with the call's API id when it had one.
 * Consecutive turns of one role are joined.
 */
export function toGoogleContents(messages: readonly Message[]): {
  systemInstruction: { parts: { text: string }[] } | undefined;
  contents: GoogleContent[];
} {
  const system: { text: string }[] = [];
  const contents: GoogleContent[] = [];
  let lastCalls: readonly ToolCall[] = [];
  const push = (role: 'user' | 'model', parts: GooglePart[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts: [...parts] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.text !== '') system.push({ text: message.text });
        break;
      case 'user': {
        const parts: GooglePart[] = [];
        if (message.text !== '' || !message.media?.length) parts.push({ text: message.text });
        for (const media of message.media ?? []) parts.push(mediaPart(media));
        push('user', parts);
        break;
      }
      case 'assistant':
        push('model', modelParts(message));
        lastCalls = message.toolCalls;
        break;
      case 'tool':
        push('user', functionResponses(message, lastCalls));
        break;
    }
  }
  return {
    systemInstruction: system.length > 0 ? { parts: system } : undefined,
    contents,
  };
}

/** Builds the `generateContent` request body for merged options and compiled tools. */
export function toGoogleRequest(
  messages: readonly Message[],
  options: GoogleChatOptions,
  tools: readonly CompiledTool[],
): GoogleGenerateContentRequest {
  const { systemInstruction, contents } = toGoogleContents(messages);
  const request: GoogleGenerateContentRequest = { contents };
  if (systemInstruction) request.systemInstruction = systemInstruction;
  if (tools.length > 0) {
    request.tools = [
      {
        functionDeclarations: tools.map(({ definition, compiled }) => {
          const parameters = compiled.schema as GoogleSchema;
          return {
            name: definition.name,
            description: definition.description,
            // A function that takes nothing has no parameters: the API refuses an empty object.
            ...(parameters.properties === undefined && parameters.type === 'OBJECT'
              ? {}
              : { parameters }),
          };
        }),
      },
    ];
    const toolConfig = googleToolConfig(options.toolChoice, options.streamFunctionCallArguments);
    if (toolConfig) request.toolConfig = toolConfig;
  }
  const generationConfig = googleGenerationConfig(options);
  if (Object.keys(generationConfig).length > 0) request.generationConfig = generationConfig;
  const safetySettings = safetySettingsOf(options.safetySettings);
  if (safetySettings) request.safetySettings = safetySettings;
  if (typeof options.cachedContent === 'string' && options.cachedContent !== '') {
    request.cachedContent = options.cachedContent;
  }
  const extraBody = options.extraBody;
  if (isRecord(extraBody)) Object.assign(request, extraBody);
  return request;
}

function googleToolConfig(
  choice: ToolChoice | undefined,
  streamArguments: unknown,
): GoogleToolConfig | undefined {
  if (choice === undefined && streamArguments !== true) return undefined;
  const config: GoogleToolConfig['functionCallingConfig'] =
    choice === undefined || choice === 'auto'
      ? { mode: 'AUTO' }
      : choice === 'none'
        ? { mode: 'NONE' }
        : choice === 'required'
          ? { mode: 'ANY' }
          : { mode: 'ANY', allowedFunctionNames: [choice.name] };
  if (streamArguments === true) config.streamFunctionCallArguments = true;
  return { functionCallingConfig: config };
}

function googleGenerationConfig(options: GoogleChatOptions): GoogleGenerationConfig {
  const config: GoogleGenerationConfig = {};
  if (typeof options.temperature === 'number') config.temperature = options.temperature;
  if (typeof options.topP === 'number') config.topP = options.topP;
  if (typeof options.topK === 'number') config.topK = options.topK;
  if (typeof options.maxTokens === 'number') config.maxOutputTokens = options.maxTokens;
  if (typeof options.stop === 'string') config.stopSequences = [options.stop];
  else if (Array.isArray(options.stop)) config.stopSequences = options.stop as string[];
  const format = options.responseFormat;
  if (isRecord(format) && format.type === 'json_schema') {
    if (!isRecord(format.schema)) {
      throw new InvalidArgumentError('responseFormat of type json_schema needs a schema object');
    }
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = format.schema;
  } else if (isRecord(format) && format.type === 'json_object') {
    config.responseMimeType = 'application/json';
  }
  const thinking = thinkingConfigOf(options);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/** `thinkingConfig`, with the flat `thinkingBudget` / `includeThoughts` / `thinkingLevel` on top. */
function thinkingConfigOf(options: GoogleChatOptions): GoogleThinkingConfig | undefined {
  const given = options.thinkingConfig;
  if (given !== undefined && !isRecord(given)) {
    throw new InvalidArgumentError('thinkingConfig must be an object');
  }
  const merged: Record<string, unknown> = {
    ...given,
    ...(options.thinkingBudget === undefined ? {} : { thinkingBudget: options.thinkingBudget }),
    ...(options.includeThoughts === undefined ? {} : { includeThoughts: options.includeThoughts }),
    ...(options.thinkingLevel === undefined ? {} : { thinkingLevel: options.thinkingLevel }),
  };
  const config: GoogleThinkingConfig = {};
  const { thinkingBudget: budget, includeThoughts: include, thinkingLevel: level } = merged;
  if (budget !== undefined) {
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < -1) {
      throw new InvalidArgumentError('thinkingBudget must be an integer of at least -1');
    }
    config.thinkingBudget = budget;
  }
  if (include !== undefined) {
    if (typeof include !== 'boolean')
      throw new InvalidArgumentError('includeThoughts must be a boolean');
    config.includeThoughts = include;
  }
  if (level !== undefined) {
    const upper = typeof level === 'string' ? level.toUpperCase() : '';
    if (!THINKING_LEVELS.has(upper)) {
      throw new InvalidArgumentError('thinkingLevel must be one of minimal, low, medium, high');
    }
    config.thinkingLevel = upper as GoogleThinkingConfig['thinkingLevel'];
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

function safetySettingsOf(value: unknown): GoogleSafetySetting[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    !value.every(
      (setting) =>
        isRecord(setting) &&
        typeof setting.category === 'string' &&
        typeof setting.threshold === 'string',
    )
  ) {
    throw new InvalidArgumentError('safetySettings must be a list of { category, threshold }');
  }
  return value as GoogleSafetySetting[];
}

/** The parts of a model turn: as recorded when the record still fits the message, else rebuilt. */
function modelParts(message: AssistantMessage): GooglePart[] {
  const records = message.metadata?.geminiParts;
  const replayed = Array.isArray(records) ? replayParts(message, records) : undefined;
  if (replayed) return replayed;
  const parts: GooglePart[] = [];
  if (message.text) parts.push({ text: message.text });
  for (const call of message.toolCalls) parts.push(functionCallPart(call));
  return parts;
}

function replayParts(
  message: AssistantMessage,
  records: readonly unknown[],
): GooglePart[] | undefined {
  const text = message.text ?? '';
  const reasoning = message.metadata?.reasoningContent;
  const thoughts = typeof reasoning === 'string' ? reasoning : '';
  const offsets = { text: 0, thought: 0 };
  let calls = 0;
  const parts: GooglePart[] = [];
  for (const record of records) {
    if (!isRecord(record)) return undefined;
    const signature =
      typeof record.thoughtSignature === 'string'
        ? { thoughtSignature: record.thoughtSignature }
        : {};
    if (record.kind === 'text' || record.kind === 'thought') {
      const length = record.length;
      const source = record.kind === 'text' ? text : thoughts;
      const offset = offsets[record.kind];
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) return undefined;
      if (offset + length > source.length) return undefined;
      offsets[record.kind] = offset + length;
      const slice = source.slice(offset, offset + length);
      parts.push(
        record.kind === 'thought'
          ? { text: slice, thought: true, ...signature }
          : { text: slice, ...signature },
      );
    } else if (record.kind === 'functionCall') {
      const call = message.toolCalls[calls++];
      if (!call) return undefined;
      parts.push(functionCallPart(call));
    } else if (record.kind === 'other' && isRecord(record.part)) {
      parts.push(record.part);
    } else {
      return undefined;
    }
  }
  if (offsets.text !== text.length || offsets.thought !== thoughts.length) return undefined;
  if (calls !== message.toolCalls.length) return undefined;
  return parts;
}

/**
 * A call sent back: its arguments as the object they spell (`{}` for arguments that are not a
 * JSON object: a call cut off or refused, never run, whose error result says so), its signature
 * and its API id where it had them.
 */
function functionCallPart(call: ToolCall): GooglePart {
  const functionCall: GoogleFunctionCall = { name: call.name, args: argsObject(call.arguments) };
  const id = call.metadata?.functionCallId;
  if (typeof id === 'string' && id !== '') functionCall.id = id;
  const signature = call.metadata?.thoughtSignature;
  return typeof signature === 'string'
    ? { functionCall, thoughtSignature: signature }
    : { functionCall };
}

function argsObject(text: unknown): Record<string, unknown> {
  if (isRecord(text)) return text;
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * The results of a tool message in the order of the calls they answer (`calls`, the previous
 * assistant message's), each under its call's name; results that answer none of them follow in
 * their own order.
 */
function functionResponses(message: ToolResponseMessage, calls: readonly ToolCall[]): GooglePart[] {
  const remaining = [...message.responses];
  const ordered: { name: string; id: unknown; response: (typeof remaining)[number] }[] = [];
  for (const call of calls) {
    const at = remaining.findIndex((response) => response.id === call.id);
    if (at === -1) continue;
    const [response] = remaining.splice(at, 1);
    ordered.push({ name: call.name, id: call.metadata?.functionCallId, response: response! });
  }
  for (const response of remaining) ordered.push({ name: response.name, id: undefined, response });
  return ordered.map(({ name, id, response }) => {
    const media =
      response.content === undefined || response.isError
        ? undefined
        : functionResponseParts(response.content);
    return {
      functionResponse: {
        name,
        response: response.isError
          ? { error: resultValue(response.responseData) }
          : { output: functionOutput(response, media !== undefined) },
        ...(media === undefined ? {} : { parts: media }),
        ...(typeof id === 'string' && id !== '' ? { id } : {}),
      },
    };
  });
}

/**
 * The media of a result with content parts as function response parts (images, audio and files
 * inline or by URL); `undefined` when it has none. Text parts and resource links stay in
 * `response.output`.
 */
function functionResponseParts(
  content: readonly ToolResultPart[],
): GoogleFunctionResponsePart[] | undefined {
  const parts: GoogleFunctionResponsePart[] = [];
  for (const part of content) {
    if (part.type !== 'image' && part.type !== 'audio' && part.type !== 'file') continue;
    const displayName =
      part.type === 'file' && part.filename !== undefined ? { displayName: part.filename } : {};
    const inline =
      part.data ??
      /^data:[^,]*;base64,(.*)$/is.exec(part.url ?? '')?.[1] ??
      (part.type === 'file' && part.text !== undefined
        ? Buffer.from(part.text, 'utf8').toString('base64')
        : undefined);
    if (inline !== undefined) {
      parts.push({ inlineData: { mimeType: part.mediaType, data: inline, ...displayName } });
    } else if (part.url !== undefined) {
      parts.push({ fileData: { mimeType: part.mediaType, fileUri: part.url, ...displayName } });
    }
  }
  return parts.length === 0 ? undefined : parts;
}

/**
 * `response.output` of a successful result: its JSON value (or text); for a result whose media
 * go in `parts`, the text form of its parts, which names each medium.
 */
function functionOutput(response: ToolResponse, withMedia: boolean): unknown {
  if (withMedia && response.structuredContent !== undefined) return response.structuredContent;
  return resultValue(response.responseData);
}

/**
 * A tool result as `functionResponse.response` holds it: the JSON value its text spells (a tool's
 * string result arrives as JSON text), else the text itself.
 */
function resultValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function mediaPart(media: Media): GooglePart {
  if (/^(https?|gs):/i.test(media.data)) {
    return { fileData: { mimeType: media.mimeType, fileUri: media.data } };
  }
  const base64 = /^data:[^;,]*;base64,(.*)$/is.exec(media.data)?.[1] ?? media.data;
  return { inlineData: { mimeType: media.mimeType, data: base64 } };
}
