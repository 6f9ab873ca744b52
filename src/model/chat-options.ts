import type { ToolCallback } from '../tools/tool-callback.js';

/**
 * How the model should pick tools: let it decide, forbid tools, require some tool, or force one
 * named tool.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/**
 * Options of one model request. Provider adapters read the common fields and their own extras
 * (any other key). `toolCallbacks` and `toolContext` are consumed by the loop: the model only ever
 * receives the tools' definitions, never the context.
 */
export interface ChatOptions {
  model?: string;
  temperature?: number;
  maxTokens?: number;
  toolChoice?: ToolChoice;
  /**
   * Tools attached to the request: their definitions go to the model, the loop executes them. A
   * model called through a `ChatClient` receives each tool as a view holding only its definition
   * (its `call` rejects), never the callback object itself.
   */
  toolCallbacks?: ToolCallback[];
  /** The caller's data for tools; a model called through a `ChatClient` never receives it. */
  toolContext?: Record<string, unknown>;
  [provider: string]: unknown;
}
