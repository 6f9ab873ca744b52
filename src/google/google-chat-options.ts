import type { ChatOptions } from '../model/index.js';
import type { GoogleSafetySetting, GoogleThinkingConfig } from './google-wire.js';

/**
 * Gemini's own request options, beyond the common `ChatOptions` (`model`,
 * `temperature`, `maxTokens`, `toolChoice`, `stop`, `responseFormat`): set them as its defaults
 * in the constructor, or per request in the prompt's options. A type, not an interface, so a value
 * of it passes as `ChatOptions` (`.options(…)`).
 */
export type GoogleOptions = {
  /** `generationConfig.thinkingConfig`; the three options below override its fields. */
  thinkingConfig?: GoogleThinkingConfig | undefined;
  /** Thinking tokens (Gemini 2.5): `0` turns thinking off, `-1` lets the model decide. */
  thinkingBudget?: number | undefined;
  /** Return thought summaries (kept as `metadata.reasoningContent`, never as the answer's text). */
  includeThoughts?: boolean | undefined;
  /** How much the model thinks (Gemini 3): `minimal`, `low`, `medium` or `high`. */
  thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high' | undefined;
  /** `safetySettings`: a block threshold per harm category. */
  safetySettings?: GoogleSafetySetting[] | undefined;
  topP?: number | undefined;
  topK?: number | undefined;
  /** A cached content's name (`cachedContents/…`) the request builds on. */
  cachedContent?: string | undefined;
  /** Vertex AI: stream each call's arguments (`partialArgs`) instead of sending it whole. */
  streamFunctionCallArguments?: boolean | undefined;
};

/**
 * The request options of a {@link GoogleChatModel}: the common `ChatOptions`, Gemini's own
 * ({@link GoogleOptions}), and the tool switches every adapter takes (which Gemini ignores). A
 * `ChatClient` over the model checks `.options()` against it; a key Gemini does not take is a type
 * error.
 */
export type GoogleChatOptions = ChatOptions &
  GoogleOptions & {
    /**
     * Ignored: Gemini has no switch for parallel function calls. Accepted so that options shared
     * with the other adapters compile.
     */
    parallelToolCalls?: boolean | undefined;
    /**
     * Ignored: Gemini has no strict schema mode (schemas are compiled to the subset it accepts
     * either way). Accepted so that options shared with the other adapters compile.
     */
    strictTools?: boolean | undefined;
    /** Body fields merged into the request last, for what this type does not name. */
    extraBody?: Record<string, unknown> | undefined;
  };
