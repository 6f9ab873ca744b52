import type { Message } from '../messages/index.js';
import type { JsonSchema } from './json-schema.js';
import type { ToolResult } from './tool-result.js';

/** What the model sees of a tool: its name, description and input schema. */
export interface ToolDefinition {
  /** Unique within the tools of one request. */
  readonly name: string;
  /** Tells the model what the tool does and when to call it. */
  readonly description: string;
  /** JSON Schema (draft 2020-12) of the tool's argument object. */
  readonly inputSchema: JsonSchema;
  /**
   * JSON Schema of the tool's structured result (`structuredContent`), when it declares one: an
   * MCP server advertises it. Never sent to a model: providers take no output schema for tools.
   */
  readonly outputSchema?: JsonSchema;
}

/** How the loop treats a tool; none of this reaches the model. */
export interface ToolMetadata {
  /** Hand the tool's result straight to the caller instead of back to the model. Default `false`. */
  readonly returnDirect?: boolean;
  /** Run this tool alone, never concurrently with other calls of its batch. Default `false`. */
  readonly sequential?: boolean;
  /**
   * Abort the tool after this many milliseconds (any length; `Infinity`: never); overrides the
   * manager's default timeout.
   */
  readonly timeoutMs?: number;
  /**
   * The tool only reads: it changes nothing in its environment. Safe to retry and, later, to run
   * without approval. Exposed over MCP as the `readOnlyHint` annotation; the `readOnlyHint` of a
   * tool of a trusted MCP server arrives here (an untrusted server's tools are `false`, whatever
   * they say). Default: not stated.
   */
  readonly readOnly?: boolean;
  /**
   * The tool may destroy or overwrite data (meaningful when it is not `readOnly`). Exposed over MCP
   * as `destructiveHint`. Default: not stated (MCP then assumes `true`).
   */
  readonly destructive?: boolean;
  /**
   * Calling the tool again with the same arguments has no further effect, so a call whose outcome
   * is unknown (its server died mid-call) may be sent again. Exposed over MCP as `idempotentHint`.
   */
  readonly idempotent?: boolean;
  /**
   * The tool reaches an open world (the web, other people's systems) rather than a closed domain.
   * Exposed over MCP as `openWorldHint`.
   */
  readonly openWorld?: boolean;
  /**
   * Whether a call of this tool waits for a human decision before it runs: `true`, `false`, or a
   * function of the call's parsed arguments and the caller's context. Stated here, it wins over
   * the client's approval policy; absent, the policy decides. See `ToolApprovalCheck`.
   */
  readonly needsApproval?: boolean | ToolApprovalCheck;
  /**
   * The tool finds other tools (as tool search's `toolSearchTool` does): a call of a tool that is
   * not offered is then answered with a hint to search for it with this tool first.
   */
  readonly discoversTools?: boolean;
  /**
   * With `discoversTools`: every name the tool can find. A call of a name outside it is answered
   * "there is no tool named …" instead of the hint to search (a tool removed from the library, or
   * a name the model made up). Absent, any name may be findable.
   */
  readonly discoverableToolNames?: ReadonlySet<string>;
  /** Further metadata for custom advisors. */
  readonly [key: string]: unknown;
}

/**
 * Decides whether one call needs approval, from its arguments (parsed and checked against the
 * tool's input schema) and the caller's context (the map, the call id, the turn so far). A
 * function that throws fails the turn before any call of its batch runs.
 */
export type ToolApprovalCheck = (
  input: Record<string, unknown>,
  context: ToolContext,
) => boolean | Promise<boolean>;

/** The shape of a tool-context map: string keys, any values. */
export type ToolContextMap = Record<string, unknown>;

/**
 * Data a tool receives from the caller and never from the model. The map is never part of a
 * schema, a prompt, a stored message, a log line or an error text.
 *
 * `Ctx` types the map for tools that declare it, e.g.
 * `execute: (input, { context }: ToolContext<{ tenantId: string }>) => context.tenantId`; it
 * defaults to `Record<string, unknown>`. The type is a promise the caller keeps (with a typed
 * `ChatClient.create<Ctx>()` it is checked at `.toolContext()`); nothing checks it at run time.
 */
export interface ToolContext<Ctx extends object = ToolContextMap> {
  /** The caller's map, as given to `.toolContext()`; read-only. */
  readonly context: Readonly<Ctx>;
  /** Id of the tool call being executed. */
  readonly toolCallId?: string;
  /**
   * The argument text exactly as the model wrote it, for a tool that wants it (logging, a
   * signature over the bytes); the tool's input is the parsed and validated value.
   */
  readonly rawArguments?: string;
  /** The conversation so far, up to and including the assistant message that requested the call. */
  readonly messages?: readonly Message[];
  /**
   * Aborted when the caller aborts or the tool's timeout expires. `undefined` when nothing can
   * abort the call (no caller signal and no timeout).
   */
  readonly signal?: AbortSignal;
  /**
   * In a durable turn (`toolloop/durable`), a key that is the same every time this call runs: the
   * durable execution's id, the loop round and the call id. A tool with an effect outside the
   * process (a payment, an email) passes it to its API as the idempotency key, so a run repeated
   * after a crash has no second effect. `undefined` outside a durable turn.
   */
  readonly idempotencyKey?: string;
}

/** What the caller of {@link ToolCallback.execute} or {@link ToolCallback.call} passes besides the input. */
export interface ToolCallOptions {
  /**
   * @deprecated Since 0.2: implement {@link ToolCallback.execute}, which receives the parsed
   * input itself. The manager no longer passes it; a `tool()` callback's `call` still honours it
   * (the arguments parsed from `input` and checked against `definition.inputSchema`: not parsed
   * or checked again).
   */
  readonly validatedInput?: Record<string, unknown>;
  /**
   * Receives progress values the tool reports while it runs (an async-generator `execute` of
   * `tool()` yields them); they become `tool-progress` events and never reach the model. Given
   * only when someone listens to the turn's events.
   */
  readonly onProgress?: (value: unknown) => void;
}

/**
 * A tool the loop can execute: the definition the model sees, metadata for the loop, and the
 * execution logic, in one of two forms (see docs/tool-contract.md):
 *
 * - `call` (required; Spring AI's contract): the raw JSON argument text in, model-ready text out.
 *   Every caller can use it: the MCP server, a hand-written loop, a wrapper.
 * - `execute` (optional; the 1.0 contract): the arguments already parsed from the model's text
 *   and checked against `definition.inputSchema` in, text or a {@link ToolResult} (content
 *   parts, structured data) out. The tool-calling manager calls it instead of `call` when it is
 *   there, so the input is parsed once and a schema library's conversion runs once.
 *
 * Both throw `InvalidToolInputError` for input the tool rejects and `ToolExecutionError` when the
 * tool fails. `tool()`, `@tool` methods, MCP tools and augmented tools implement both.
 */
export interface ToolCallback {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  /** Runs the tool on the raw JSON argument text; resolves to the result as text. */
  call(input: string, context?: ToolContext, options?: ToolCallOptions): Promise<string>;
  /**
   * Runs the tool on arguments already parsed and checked against `definition.inputSchema` (it
   * must not parse or check them again); resolves to text or a {@link ToolResult}. The model's
   * text is `context.rawArguments`. Optional: without it the manager calls `call`.
   */
  execute?(
    input: Record<string, unknown>,
    context: ToolContext,
    options?: ToolCallOptions,
  ): Promise<string | ToolResult>;
  /**
   * The arguments a call approved with an edit runs with: the human's `edited` arguments,
   * completed from the model's `original` ones where the tool needs fields a human does not
   * write. An augmented tool keeps the model-written extra fields (its reasoning, say) that the
   * edit leaves out; a field the edit gives wins. The result is then checked against
   * `definition.inputSchema`. Absent: the edit is taken as it is.
   */
  completeEditedArguments?(
    edited: Record<string, unknown>,
    original: Record<string, unknown>,
  ): Record<string, unknown>;
}

/** What a {@link ToolCallbackProvider} is told about the request it lists tools for. */
export interface ToolCallbackProviderRequest {
  /**
   * Names already taken in the request: the request's own tools and those of providers asked
   * before this one. A provider that renames or drops tools on a collision reads it (an MCP
   * provider's collision policy); others may ignore it.
   */
  readonly reservedNames: ReadonlySet<string>;
  /**
   * The request's abort signal. A provider that waits on I/O (an MCP server's tool list) should
   * give up when it aborts; the request stops waiting for any provider then anyway.
   */
  readonly signal?: AbortSignal;
}

/** A source of tools listed again on every request (for example an MCP server). */
export interface ToolCallbackProvider {
  getToolCallbacks(request?: ToolCallbackProviderRequest): ToolCallback[] | Promise<ToolCallback[]>;
}

/**
 * Looks a tool up by name; `undefined` when it does not know the name (Spring AI's
 * `ToolCallbackResolver`, as a function). {@link staticToolCallbackResolver} makes one from a list
 * (Spring AI's `StaticToolCallbackResolver`); resolvers chain with `??` (Spring AI's
 * `DelegatingToolCallbackResolver`): `(name) => first(name) ?? second(name)`.
 */
export type ToolCallbackResolver = (toolName: string) => ToolCallback | undefined;
