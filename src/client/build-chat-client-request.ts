import type { ChatClientRequest, DurableSteps } from '../advisors/index.js';
import { throwIfAborted } from '../errors/index.js';
import { keepInstanceShape } from '../internal/keep-instance-shape.js';
import type { Message, UserMessage } from '../messages/index.js';
import type { ChatModel, ToolCallingChatOptions } from '../model/index.js';
import { assertUniqueToolNames } from '../tools/assert-unique-tool-names.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { resolveToolCallbacks } from '../tools/tool-sources.js';
import type { ChatClientRequestState } from './chat-client-request-state.js';
import { mergeChatOptions } from './merge-chat-options.js';

/**
 * Builds the request that enters the advisor chain, when `.call()` or `.stream()` runs.
 *
 * - Messages: the system text, then `.messages()`, then the user turn; the system and user entries
 *   only when they have text (or, for the user, media).
 * - Options: the model's `defaultOptions`, then the client's and the call's `.options()`, merged
 *   key by key (see `mergeChatOptions`).
 * - Tools: the client's and the call's sources, callbacks first, then every provider listed now.
 *   When that list is not empty it replaces the options' `toolCallbacks`; duplicate names throw a
 *   `ToolDefinitionError` naming the tool.
 * - Tool context: the options' context, then the client's and the call's `.toolContext()`.
 * - Context: a copy of the advisor params.
 * - Listeners: the client's and the request's turn-event listeners, when there are any.
 * - Durable steps: the engine running the turn, when a durable worker runs it.
 *
 * Without tool providers everything is known now and the request is returned as it is, not in a
 * promise: `.call()` then hands it to the chain in the same tick.
 */
export function buildChatClientRequest(
  chatModel: ChatModel,
  state: ChatClientRequestState,
  signal: AbortSignal | undefined,
  durable?: DurableSteps,
): ChatClientRequest | Promise<ChatClientRequest> {
  throwIfAborted(signal);
  if (state.tools.providers.length === 0) {
    return assembleRequest(chatModel, state, state.tools.callbacks.slice(), signal, durable);
  }
  const request = signal === undefined ? undefined : { reservedNames: new Set<string>(), signal };
  return resolveToolCallbacks(state.tools, request).then((toolCallbacks) =>
    assembleRequest(chatModel, state, toolCallbacks, signal, durable),
  );
}

function assembleRequest(
  chatModel: ChatModel,
  state: ChatClientRequestState,
  toolCallbacks: ToolCallback[],
  signal: AbortSignal | undefined,
  durable: DurableSteps | undefined,
): ChatClientRequest {
  const withSystem = state.system !== undefined && state.system.trim() !== '';
  const user = state.user;
  const withUser = user !== undefined && (user.text.trim() !== '' || (user.media?.length ?? 0) > 0);
  // Made at its final length (pushing onto `[]` grew it to 17 slots), and filled by a loop: a
  // push(...spread) of a history of ~100k messages overflows the call stack.
  const messages: Message[] = new Array(
    state.messages.length + (withSystem ? 1 : 0) + (withUser ? 1 : 0),
  );
  let next = 0;
  if (withSystem) messages[next++] = { role: 'system', text: state.system as string };
  for (const message of state.messages) messages[next++] = message;
  if (withUser) {
    const message: UserMessage = { role: 'user', text: user.text };
    if (user.media !== undefined) message.media = user.media;
    if (user.metadata !== undefined) message.metadata = user.metadata;
    messages[next] = message;
  }

  const options: ToolCallingChatOptions = mergeChatOptions(chatModel.defaultOptions, state.options);
  if (toolCallbacks.length > 0) {
    // Spring AI's text, which names the options the tools travel in.
    assertUniqueToolNames(toolCallbacks, 'ToolCallingChatOptions');
    withToolCallbacks(options, toolCallbacks);
  }
  if (hasEntries(state.toolContext)) {
    options.toolContext = { ...options.toolContext, ...state.toolContext };
  }

  const request: ChatClientRequest = {
    prompt: { messages, options },
    context: { ...state.advisorParams },
  };
  if (signal !== undefined) request.signal = signal;
  if (state.listeners.length > 0) request.listeners = state.listeners;
  if (durable !== undefined) request.durable = durable;
  return request;
}

function withToolCallbacks(
  options: ToolCallingChatOptions,
  toolCallbacks: ToolCallback[],
): ToolCallingChatOptions {
  options.toolCallbacks = toolCallbacks;
  return options;
}

// The options of a request with tools and no other option: built property by property, so only a
// live instance keeps their hidden class (and the prompt view's, the same): without this one,
// every full GC deoptimized the request, the model advisor and the tool-calling manager.
keepInstanceShape(withToolCallbacks(mergeChatOptions(), []));

function hasEntries(record: Readonly<Record<string, unknown>>): boolean {
  for (const _key in record) return true;
  return false;
}
