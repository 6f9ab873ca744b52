import {
  type Advisor,
  type ChatClientRequest,
  type ChatClientResponse,
  ChatModelAdvisor,
  DefaultCallAdvisorChain,
  DefaultStreamAdvisorChain,
} from '../../advisors/index.js';
import type { Message } from '../../messages/index.js';
import {
  aggregateChatResponses,
  type ChatModel,
  type ChatModelCallOptions,
  type ChatResponse,
  type Prompt,
  type ToolCallingChatOptions,
} from '../../model/index.js';
import type {
  ToolCallback,
  ToolContext,
  ToolDefinition,
  ToolMetadata,
} from '../../tools/tool-callback.js';
import type {
  ExecuteToolCallsOptions,
  ToolCallingManager,
  ToolExecutionResult,
} from '../tool-calling-manager.js';

/** One recorded execution of a {@link RecordingTool}. */
export interface ToolInvocation {
  input: string;
  context: ToolContext | undefined;
}

/** A tool callback that records every invocation. */
export interface RecordingTool extends ToolCallback {
  readonly invocations: ToolInvocation[];
}

/** A tool with an empty-object schema that answers with `execute` (default: a fixed JSON text). */
export function recordingTool(
  name: string,
  options: {
    metadata?: ToolMetadata;
    execute?: (input: string, context: ToolContext | undefined) => string | Promise<string>;
  } = {},
): RecordingTool {
  const invocations: ToolInvocation[] = [];
  const execute = options.execute ?? (() => `{"tool":"${name}","ok":true}`);
  return {
    definition: {
      name,
      description: `The ${name} tool`,
      inputSchema: { type: 'object', properties: {} },
    },
    metadata: options.metadata ?? {},
    invocations,
    async call(input, context) {
      invocations.push({ input, context });
      return execute(input, context);
    },
  };
}

/**
 * The definitions of the tools a model was offered in a recorded prompt (the model receives each
 * tool as its definition only, never the callback itself).
 */
export function offeredDefinitions(prompt: Prompt | undefined): ToolDefinition[] | undefined {
  return prompt?.options.toolCallbacks?.map((callback) => callback.definition);
}

/** One recorded `executeToolCalls` call. */
export interface ManagerCall {
  /** The prompt's messages, copied at call time. */
  messages: Message[];
  options: ToolCallingChatOptions;
  chatResponse: ChatResponse;
  signal: AbortSignal | undefined;
}

/** What a {@link RecordingToolCallingManager} does for one call. */
export type ManagerOutcome =
  | ToolExecutionResult
  | Error
  | ((prompt: Prompt<ToolCallingChatOptions>, chatResponse: ChatResponse) => ToolExecutionResult);

/**
 * A `ToolCallingManager` that records what the advisor hands it. With a delegate it forwards every
 * call (the real manager executes the tools); otherwise it answers from a queue of outcomes and
 * throws when the queue runs dry.
 */
export class RecordingToolCallingManager implements ToolCallingManager {
  readonly calls: ManagerCall[] = [];
  private readonly outcomes: ManagerOutcome[];
  private readonly delegate: ToolCallingManager | undefined;

  constructor(source: ToolCallingManager | ManagerOutcome[]) {
    if (Array.isArray(source)) {
      this.outcomes = [...source];
      this.delegate = undefined;
    } else {
      this.outcomes = [];
      this.delegate = source;
    }
  }

  resolveToolDefinitions(options: ToolCallingChatOptions) {
    return (options.toolCallbacks ?? []).map((callback) => callback.definition);
  }

  async executeToolCalls(
    prompt: Prompt<ToolCallingChatOptions>,
    chatResponse: ChatResponse,
    options: ExecuteToolCallsOptions = {},
  ): Promise<ToolExecutionResult> {
    this.calls.push({
      messages: structuredClone(prompt.messages),
      options: prompt.options,
      chatResponse,
      signal: options.signal,
    });
    if (this.delegate) return this.delegate.executeToolCalls(prompt, chatResponse, options);
    const outcome = this.outcomes.shift();
    if (outcome === undefined) {
      throw new Error(`RecordingToolCallingManager: no outcome left for call ${this.calls.length}`);
    }
    if (outcome instanceof Error) throw outcome;
    return typeof outcome === 'function' ? outcome(prompt, chatResponse) : outcome;
  }
}

/** The call chain `[...advisors, model]`, sorted by order. */
export function callChain(model: ChatModel, ...advisors: Advisor[]): DefaultCallAdvisorChain {
  return DefaultCallAdvisorChain.of([...advisors, new ChatModelAdvisor(model)]);
}

/** The stream chain `[...advisors, model]`, sorted by order. */
export function streamChain(model: ChatModel, ...advisors: Advisor[]): DefaultStreamAdvisorChain {
  return DefaultStreamAdvisorChain.of([...advisors, new ChatModelAdvisor(model)]);
}

/** A client request with the given messages and options. */
export function clientRequest(
  messages: Message[],
  options: ToolCallingChatOptions = {},
  extra: { context?: Record<string, unknown>; signal?: AbortSignal } = {},
): ChatClientRequest {
  const request: ChatClientRequest = {
    prompt: { messages, options },
    context: extra.context ?? {},
  };
  if (extra.signal) request.signal = extra.signal;
  return request;
}

/** Reads a whole stream. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** The chat responses of streamed client responses. */
export function chatResponsesOf(responses: readonly ChatClientResponse[]): ChatResponse[] {
  return responses.map((response) => response.chatResponse as ChatResponse);
}

/**
 * A chat model that streams each round exactly as scripted (a list of chunks per call), for
 * tests about chunk layout (usage on chosen chunks, text beside tool calls). Records every prompt
 * and throws when the script runs dry; `call` answers with the aggregate of the round's chunks.
 */
export class ChunkScriptModel implements ChatModel {
  readonly prompts: Prompt[] = [];
  private readonly rounds: ChatResponse[][];

  constructor(rounds: ChatResponse[][]) {
    this.rounds = [...rounds];
  }

  async call(prompt: Prompt, options: ChatModelCallOptions = {}): Promise<ChatResponse> {
    return aggregateChatResponses(this.next(prompt, options));
  }

  async *stream(prompt: Prompt, options: ChatModelCallOptions = {}): AsyncIterable<ChatResponse> {
    for (const chunk of this.next(prompt, options)) {
      options.signal?.throwIfAborted();
      yield chunk;
    }
  }

  private next(prompt: Prompt, options: ChatModelCallOptions): ChatResponse[] {
    options.signal?.throwIfAborted();
    this.prompts.push({ messages: structuredClone(prompt.messages), options: prompt.options });
    const round = this.rounds.shift();
    if (round === undefined) {
      throw new Error(`ChunkScriptModel: no round left for call ${this.prompts.length}`);
    }
    return round;
  }
}
