import { InvalidArgumentError } from '../errors/index.js';
import type { ChatOptions, OfferedTool, Prompt, ToolCallingChatOptions } from '../model/index.js';

type ToolDefinition = OfferedTool['definition'];

/**
 * What a model receives of each tool, by the definition it copies: a tool keeps one for as long
 * as its definition lives, so every round hands the model the same objects (provider adapters
 * cache compiled schemas by definition) and a round allocates none.
 */
const offered = new WeakMap<object, OfferedTool>();

/**
 * The prompt as a `ChatModel` receives it: the loop's request with the tool callbacks and the
 * tool context lifted out. The options keep every model option; `toolCallbacks` becomes the
 * tools as the model may see them, a frozen `{ definition }` per tool holding a frozen copy of
 * its name, description and input schema (no metadata, no closure, nothing to run); the context
 * is not there at all. A prompt with neither key is returned as it is.
 *
 * Why at the terminal advisor: every advisor in front of the model reads and rewrites the tools
 * and the context as plain data (tool search replaces the offered tools and adds its session id
 * to the context), so the loop's request carries them down the chain; this is the one place a
 * prompt leaves the chain for a model. The types say the same: `ChatModel.call` takes
 * `ChatOptions`, whose `toolContext` is `never`.
 */
export function toModelPrompt(prompt: Prompt<ToolCallingChatOptions>): Prompt<ChatOptions> {
  const options = prompt.options;
  if (options == null || (!('toolCallbacks' in options) && !('toolContext' in options))) {
    return prompt as Prompt<ChatOptions>;
  }
  const { toolCallbacks, toolContext: _stays, ...modelOptions } = options;
  if (toolCallbacks === undefined) return { messages: prompt.messages, options: modelOptions };
  if (!Array.isArray(toolCallbacks)) {
    throw new InvalidArgumentError('options.toolCallbacks must be an array of ToolCallbacks');
  }
  const tools: OfferedTool[] = new Array(toolCallbacks.length);
  for (let index = 0; index < toolCallbacks.length; index++) {
    tools[index] = offeredTool(toolCallbacks[index]);
  }
  return { messages: prompt.messages, options: { ...modelOptions, toolCallbacks: tools } };
}

function offeredTool(callback: { definition?: unknown } | undefined): OfferedTool {
  const definition: unknown = callback?.definition;
  if (typeof definition !== 'object' || definition === null) {
    throw new InvalidArgumentError(
      'options.toolCallbacks must hold ToolCallbacks, each with a definition object',
    );
  }
  const known = offered.get(definition);
  if (known !== undefined) return known;
  const { name, description, inputSchema } = definition as ToolDefinition;
  const tool: OfferedTool = Object.freeze({
    definition: Object.freeze({ name, description, inputSchema }),
  });
  offered.set(definition, tool);
  return tool;
}
