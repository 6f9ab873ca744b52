import { type ChatOptions, InvalidArgumentError, type Message } from '../index.js';

/**
 * What starts a durable turn, as plain JSON (the engine stores it with the turn, so a worker that
 * recovers the turn rebuilds the same request): the agent's `ChatClient` supplies the model, the
 * tools and the advisors, this input the rest. Secrets do not belong here, since the input is
 * stored in the system database: give them to the agent (`DurableAgentOptions.toolContext`).
 */
export interface DurableTurnInput {
  /** The user's text. */
  readonly user?: string;
  /** Replaces the client's default system text. */
  readonly system?: string;
  /** Messages between the system text and the user's text. */
  readonly messages?: readonly Message[];
  /** The conversation, for a memory advisor (the advisor param `CONVERSATION_ID`). */
  readonly conversationId?: string;
  /** Further advisor params (for example a tool-search session id). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** The tool context of the turn; stored with it. */
  readonly toolContext?: Readonly<Record<string, unknown>>;
  /** Chat options merged over the client's (plain JSON: no tools, no tool context). */
  readonly options?: Omit<ChatOptions, 'toolCallbacks' | 'toolContext'>;
  /** Run the turn as a stream: its chunks go to the turn's event stream as they come. */
  readonly stream?: boolean;
}

/** A turn's input as the engine stores it: with the agent that runs it. */
export interface StoredTurnInput extends DurableTurnInput {
  readonly agent: string;
}

/**
 * The stored form of a turn's input, checked: every field of its type, and nothing that JSON
 * cannot carry (a function, a class instance, `undefined` in an array).
 * @throws InvalidArgumentError naming the field.
 */
export function storedTurnInput(agent: string, input: DurableTurnInput): StoredTurnInput {
  if (typeof agent !== 'string' || agent === '') {
    throw new InvalidArgumentError('agent must be the name of a registered agent');
  }
  if (input === null || typeof input !== 'object') {
    throw new InvalidArgumentError('the turn input must be an object');
  }
  for (const field of ['user', 'system', 'conversationId'] as const) {
    const value = input[field];
    if (value !== undefined && typeof value !== 'string') {
      throw new InvalidArgumentError(`the turn input's ${field} must be a string`);
    }
  }
  if (input.messages !== undefined && !Array.isArray(input.messages)) {
    throw new InvalidArgumentError("the turn input's messages must be an array of messages");
  }
  for (const field of ['params', 'toolContext', 'options'] as const) {
    const value = input[field];
    if (
      value !== undefined &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    ) {
      throw new InvalidArgumentError(`the turn input's ${field} must be an object`);
    }
  }
  if (
    input.options !== undefined &&
    ('toolCallbacks' in input.options || 'toolContext' in input.options)
  ) {
    throw new InvalidArgumentError(
      "the turn input's options cannot carry toolCallbacks or toolContext: give tools to the agent's ChatClient, and the tool context as toolContext",
    );
  }
  if (input.stream !== undefined && typeof input.stream !== 'boolean') {
    throw new InvalidArgumentError("the turn input's stream must be a boolean");
  }
  const stored = { ...input, agent };
  const problem = notJson(stored, 'input');
  if (problem !== undefined) {
    throw new InvalidArgumentError(`the turn input must be plain JSON, but ${problem}`);
  }
  return stored;
}

/** Where a value holds something JSON cannot carry, or `undefined`. */
function notJson(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (item === undefined) return `${path}[${index}] is undefined`;
      const problem = notJson(item, `${path}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      return `${path} is a ${(value as object).constructor?.name ?? 'class instance'}`;
    }
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const problem = notJson(item, `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return `${path} is a ${typeof value}`;
}
