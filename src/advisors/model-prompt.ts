import { IllegalStateError, InvalidArgumentError } from '../errors/index.js';
import type { ChatOptions, Prompt } from '../model/index.js';

type ToolCallback = NonNullable<ChatOptions['toolCallbacks']>[number];
type ToolDefinition = ToolCallback['definition'];

const NO_METADATA = Object.freeze({});

/**
 * Definition views by the definition they copy: a tool keeps one view for as long as its
 * definition lives, so every round hands the model the same objects (provider adapters cache
 * compiled schemas by definition) and a round allocates no view.
 */
const views = new WeakMap<object, ToolCallback>();

/**
 * The prompt as a `ChatModel` receives it: the options without `toolContext`, and each of the
 * `toolCallbacks` replaced by a view that holds a frozen copy of its definition (name,
 * description, input schema) and nothing else. No metadata, no fields of the tool object, no
 * closure; the view's `call` rejects, since a model never executes tools. A prompt with neither
 * key is returned as it is.
 *
 * Why here rather than hiding the values from the options: every advisor in front of the model
 * reads and rewrites `toolCallbacks` and `toolContext` as plain data (tool search replaces the
 * offered tools and adds its session id to the context), so the options must carry them down the
 * chain; this advisor is the one place where a prompt leaves the chain for a model.
 */
export function toModelPrompt(prompt: Prompt): Prompt {
  const options = prompt.options;
  if (options == null || (!('toolCallbacks' in options) && !('toolContext' in options))) {
    return prompt;
  }
  const { toolCallbacks, toolContext: _neverSent, ...modelOptions } = options;
  if (toolCallbacks !== undefined) {
    if (!Array.isArray(toolCallbacks)) {
      throw new InvalidArgumentError('options.toolCallbacks must be an array of ToolCallbacks');
    }
    const offered: ToolCallback[] = new Array(toolCallbacks.length);
    for (let index = 0; index < toolCallbacks.length; index++) {
      offered[index] = definitionView(toolCallbacks[index]);
    }
    modelOptions.toolCallbacks = offered;
  }
  return { messages: prompt.messages, options: modelOptions };
}

function definitionView(callback: ToolCallback | undefined): ToolCallback {
  const definition: unknown = callback?.definition;
  if (typeof definition !== 'object' || definition === null) {
    throw new InvalidArgumentError(
      'options.toolCallbacks must hold ToolCallbacks, each with a definition object',
    );
  }
  const known = views.get(definition);
  if (known !== undefined) return known;
  const { name, description, inputSchema } = definition as ToolDefinition;
  const copy: ToolDefinition = Object.freeze({ name, description, inputSchema });
  const view: ToolCallback = Object.freeze({
    definition: copy,
    metadata: NO_METADATA,
    call(): Promise<string> {
      return Promise.reject(
        new IllegalStateError(
          `A ChatModel never executes tools: '${String(name)}' reaches the model as its definition only; the ToolCallingManager runs tools`,
        ),
      );
    },
  });
  views.set(definition, view);
  return view;
}
