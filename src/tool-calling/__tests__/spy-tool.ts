import type { AssistantMessage, Message, ToolCall } from '../../messages/index.js';
import type {
  ChatResponse,
  FinishReason,
  Prompt,
  ToolCallingChatOptions,
} from '../../model/index.js';
import type { JsonSchema } from '../../tools/json-schema.js';
import type { ToolCallback, ToolContext, ToolMetadata } from '../../tools/tool-callback.js';

/** One recorded invocation of a {@link SpyTool}. */
export interface SpyInvocation {
  input: string;
  context: ToolContext | undefined;
}

/** A hand-built tool callback that records every invocation. */
export interface SpyTool extends ToolCallback {
  readonly invocations: SpyInvocation[];
}

/** Options of {@link spyTool}. */
export interface SpyToolOptions {
  inputSchema?: JsonSchema;
  metadata?: ToolMetadata;
  description?: string;
  execute?: (input: string, context: ToolContext | undefined) => unknown;
}

/** A tool that records its invocations and answers with `execute`, or "Mission accomplished!". */
export function spyTool(name: string, options: SpyToolOptions = {}): SpyTool {
  const invocations: SpyInvocation[] = [];
  const execute = options.execute ?? (() => 'Mission accomplished!');
  return {
    definition: {
      name,
      description: options.description ?? `The ${name} tool`,
      inputSchema: options.inputSchema ?? { type: 'object', properties: {} },
    },
    metadata: options.metadata ?? {},
    invocations,
    async call(input, context) {
      invocations.push({ input, context });
      return (await execute(input, context)) as string;
    },
  };
}

/** A response with one generation whose assistant message requests `calls`. */
export function toolCallResponse(
  calls: ToolCall[],
  finishReason: FinishReason | null = 'tool_calls',
): ChatResponse {
  const output: AssistantMessage = { role: 'assistant', text: null, toolCalls: calls };
  return { results: [{ output, metadata: { finishReason } }], metadata: {} };
}

/**
 * A prompt with the given messages (a single user message by default) and tools; with a tool
 * context it is a loop prompt only (a model cannot take it).
 */
export function promptWith(
  tools: ToolCallback[],
  messages?: Message[],
): Prompt<{ toolCallbacks: ToolCallback[] }>;
export function promptWith(
  tools: ToolCallback[],
  messages: Message[] | undefined,
  toolContext: Record<string, unknown> | undefined,
): Prompt<ToolCallingChatOptions>;
export function promptWith(
  tools: ToolCallback[],
  messages: Message[] = [{ role: 'user', text: 'go' }],
  toolContext?: Record<string, unknown>,
): Prompt<ToolCallingChatOptions> {
  return {
    messages,
    options:
      toolContext === undefined ? { toolCallbacks: tools } : { toolCallbacks: tools, toolContext },
  };
}

/** A promise with its resolve and reject functions exposed. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Creates a {@link Deferred}. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run. */
export async function flushMicrotasks(rounds = 10): Promise<void> {
  for (let index = 0; index < rounds; index++) await Promise.resolve();
}

/** Waits one macrotask turn (timers of 0 ms, I/O callbacks). */
export function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
