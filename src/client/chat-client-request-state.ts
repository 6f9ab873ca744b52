import type { Advisor } from '../advisors/index.js';
import type { Media, Message, Metadata } from '../messages/index.js';
import type { ToolCallingChatOptions } from '../model/index.js';
import type { TurnEventListener } from '../observability/turn-event.js';
import type { CollectedToolSources } from '../tools/tool-sources.js';

/** Tool sources after classification: callbacks now, providers listed on every request. */
export type CollectedTools = CollectedToolSources;

/** The user turn of a request: text with optional media and metadata. */
export interface UserInput {
  text: string;
  media?: Media[];
  metadata?: Metadata;
}

/** Everything a request spec has gathered; frozen, shared between specs derived from each other. */
export interface ChatClientRequestState {
  readonly system: string | undefined;
  readonly user: UserInput | undefined;
  readonly messages: readonly Message[];
  readonly tools: CollectedTools;
  readonly toolContext: Readonly<Record<string, unknown>>;
  readonly options: ToolCallingChatOptions | undefined;
  readonly advisors: readonly Advisor[];
  readonly advisorParams: Readonly<Record<string, unknown>>;
  /** The turn-event listeners: the client's, then the request's. */
  readonly listeners: readonly TurnEventListener[];
}

/** Concatenates two collections of tool sources, keeping their order. */
export function concatTools(first: CollectedTools, second: CollectedTools): CollectedTools {
  // Collections are never changed once made, so an empty side needs no copy.
  if (first.callbacks.length === 0 && first.providers.length === 0) return second;
  if (second.callbacks.length === 0 && second.providers.length === 0) return first;
  return {
    callbacks: [...first.callbacks, ...second.callbacks],
    providers: [...first.providers, ...second.providers],
  };
}
