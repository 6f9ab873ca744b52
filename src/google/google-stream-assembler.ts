import { createHash, randomUUID } from 'node:crypto';
import { parseEventJson } from '../internal/parse-event-json.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import type { StreamConverter } from '../internal/provider-transport.js';
import type { ServerSentEvent } from '../internal/server-sent-events.js';
import { WireReader } from '../internal/wire-reader.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  type ChatResponseMetadata,
  FinishReason,
  type Generation,
  type ToolCallDelta,
} from '../model/index.js';
import {
  googleReportedError,
  MAX_GOOGLE_CANDIDATES,
  mapGoogleFinishReason,
  mapGoogleUsage,
} from './google-response-fields.js';
import type { GeminiPartRecord } from './google-wire.js';
import { PartialArgsBuilder } from './partial-args-builder.js';

/** A function call whose arguments are still streaming (Vertex AI's `willContinue`). */
interface OpenCall {
  id: string;
  name: string;
  /** Counts the candidate's calls from 0: the `index` of its deltas. */
  ordinal: number;
  /** The id the API gave the call, if it gave one: it goes back with the call and its result. */
  wireId: string | undefined;
  signature: string | undefined;
  args: PartialArgsBuilder;
}

interface CandidateState {
  /** The candidate's non-thought text so far. */
  text: string;
  /** Its thought summaries so far. */
  reasoning: string;
  records: GeminiPartRecord[];
  /** Whether the records must be kept: a signature, a thought or another part came. */
  keepRecords: boolean;
  open: OpenCall | undefined;
  calls: number;
  finished: boolean;
}

/**
 * Reads Gemini `streamGenerateContent?alt=sse` events (each a whole `GenerateContentResponse`
 * whose parts follow the previous event's) into `ChatResponse` chunks, one generation per
 * candidate: text parts become `output.text` at once; thought parts (`thought: true`) are kept as
 * `metadata.reasoningContent`; a function call sent whole in one part is emitted in the chunk of
 * that part, and one whose arguments Vertex AI streams (`willContinue`, `partialArgs`, closed by
 * an empty `functionCall` or by a part without `willContinue`) in the chunk where it closes. Each
 * call is announced as a display-only `toolCallDelta` (name first, then its arguments text).
 *
 * Gemini gives calls no id: each gets one derived from the response id, the candidate and the
 * call's position, the same however the stream was cut, and kept with the call in chat memory;
 * an id the API did give goes in `metadata.functionCallId`. A part's `thoughtSignature` stays with
 * its part: on the call (`metadata.thoughtSignature`), or in `metadata.geminiParts` of the
 * assistant message for text, thought and other parts (see {@link GeminiPartRecord}), so the next
 * request sends it back exactly where it came. The candidate's last chunk carries its finish
 * reason; usage comes with every event that counts (thought tokens as `reasoningTokens`).
 *
 * A call still streaming when a new call starts or the candidate finishes, or whose last string
 * value was still open, is emitted marked `metadata.truncated`, so the loop never runs it.
 * Candidate indexes 0 to 99 are accepted. An `error` event, an event of another shape than the
 * API's, a malformed `partialArgs` path, or a stream that ends before every candidate finished
 * throws a {@link ChatModelError} built by `errors`. Parts of kinds it does not know are kept, in
 * place, and sent back.
 */
export class GoogleStreamAssembler implements StreamConverter<ChatResponse> {
  private readonly errors: ProviderErrors;
  private readonly read: WireReader;
  private readonly candidates = new Map<number, CandidateState>();
  private responseId: string | undefined;
  private model: string | undefined;
  /** What call ids are derived from: the response id, else a random value of this response. */
  private idSeed: string | undefined;

  constructor(errors: ProviderErrors = new ProviderErrors('google')) {
    this.errors = errors;
    this.read = new WireReader(errors);
  }

  /** Feeds one server-sent event. */
  *event(event: ServerSentEvent): Iterable<ChatResponse> {
    const data = event.data.trim();
    if (data === '' || data === '[DONE]') return;
    const parsed = parseEventJson(data, this.errors);
    yield* this.response(parsed, 'stream');
  }

  /** Called when the byte stream ended. */
  end(): Iterable<ChatResponse> {
    if (this.isComplete()) return [];
    throw this.errors.create({
      message: `${this.errors.provider} stream ended before the response finished`,
      retryable: true,
    });
  }

  /** Only an event with no data keeps the connection open without being progress. */
  isKeepAlive(event: ServerSentEvent): boolean {
    return event.data.trim() === '';
  }

  /** True once every candidate seen has its finish reason. */
  isComplete(): boolean {
    if (this.candidates.size === 0) return false;
    for (const state of this.candidates.values()) if (!state.finished) return false;
    return true;
  }

  /**
   * Reads one `GenerateContentResponse` (a stream event, or a whole non-streamed body) and
   * yields its chunk, if it carries anything.
   */
  *response(value: unknown, where: 'response' | 'stream' = 'response'): Iterable<ChatResponse> {
    const body = this.read.object(value, where === 'stream' ? 'a stream event' : 'the body');
    if (body.error !== undefined && body.error !== null) {
      throw googleReportedError(body.error, this.errors, where);
    }
    this.responseId = this.read.optionalString(body.responseId, 'responseId') || this.responseId;
    this.model = this.read.optionalString(body.modelVersion, 'modelVersion') || this.model;
    const usage = mapGoogleUsage(body.usageMetadata);
    const results: Generation[] = [];
    let meaningful = usage !== undefined;
    const candidates = this.read.optionalArray(body.candidates, 'candidates') ?? [];
    candidates.forEach((entry, position) => {
      const at = `candidates[${position}]`;
      const candidate = this.read.object(entry, at);
      const index =
        this.read.optionalIndex(candidate.index, `${at}.index`, MAX_GOOGLE_CANDIDATES) ?? position;
      const state = this.state(index);
      const content = this.read.optionalObject(candidate.content, `${at}.content`);
      const parts = this.read.optionalArray(content?.parts, `${at}.content.parts`) ?? [];
      const finishReason = this.read.optionalString(candidate.finishReason, `${at}.finishReason`);
      // A candidate that finished takes nothing more: a late part never becomes a call.
      if (state.finished) return;
      const generation = results[index] ?? emptyGeneration();
      results[index] = generation;
      parts.forEach((part, number) => {
        this.part(state, generation, part, `${at}.content.parts[${number}]`);
      });
      if (finishReason) this.finish(state, generation, finishReason);
      if (!isEmpty(generation)) meaningful = true;
    });
    const feedback = this.read.optionalObject(body.promptFeedback, 'promptFeedback');
    const blockReason = this.read.optionalString(
      feedback?.blockReason,
      'promptFeedback.blockReason',
    );
    if (blockReason && candidates.length === 0) {
      // The prompt itself was blocked: no candidate comes, the answer is over.
      const state = this.state(0);
      if (!state.finished) {
        const generation = results[0] ?? emptyGeneration();
        results[0] = generation;
        state.finished = true;
        generation.metadata = { finishReason: FinishReason.CONTENT_FILTER, blockReason };
        meaningful = true;
      }
    }
    if (!meaningful) return;
    for (let index = 0; index < results.length; index++) results[index] ??= emptyGeneration();
    const metadata: ChatResponseMetadata = {};
    if (this.responseId) metadata.id = this.responseId;
    if (this.model) metadata.model = this.model;
    if (usage) metadata.usage = usage;
    yield { results, metadata };
  }

  /** Finishes every candidate still open (a non-streamed body need not say why it ended). */
  *finishAll(): Iterable<ChatResponse> {
    const results: Generation[] = [];
    for (const [index, state] of this.candidates) {
      if (state.finished) continue;
      const generation = emptyGeneration();
      this.finish(state, generation, undefined);
      results[index] = generation;
    }
    if (results.length === 0) return;
    for (let index = 0; index < results.length; index++) results[index] ??= emptyGeneration();
    yield { results, metadata: {} };
  }

  private state(index: number): CandidateState {
    let state = this.candidates.get(index);
    if (!state) {
      state = {
        text: '',
        reasoning: '',
        records: [],
        keepRecords: false,
        open: undefined,
        calls: 0,
        finished: false,
      };
      this.candidates.set(index, state);
    }
    return state;
  }

  private part(state: CandidateState, generation: Generation, value: unknown, where: string) {
    const part = this.read.object(value, where);
    const signature = this.read.optionalString(part.thoughtSignature, `${where}.thoughtSignature`);
    if (part.functionCall !== undefined && part.functionCall !== null) {
      const call = this.read.object(part.functionCall, `${where}.functionCall`);
      this.functionCall(state, generation, call, signature, `${where}.functionCall`);
      return;
    }
    if (part.text !== undefined && part.text !== null) {
      const text = this.read.optionalString(part.text, `${where}.text`) as string;
      if (part.thought === true) {
        state.reasoning += text;
        this.record(state, 'thought', text.length, signature);
      } else {
        state.text += text;
        if (text !== '') generation.output.text = (generation.output.text ?? '') + text;
        this.record(state, 'text', text.length, signature);
      }
      return;
    }
    const { thoughtSignature: _signature, thought: _thought, ...data } = part;
    if (Object.keys(data).length === 0) {
      // A signature that came alone: kept on an empty text part, the way Gemini sends one.
      if (signature !== undefined) this.record(state, 'text', 0, signature);
      return;
    }
    state.records.push({ kind: 'other', part });
    state.keepRecords = true;
  }

  /**
   * Appends a text or thought part to the records: a part without a signature joins the run of
   * its kind before it; a signed part stands alone, so its signature goes back on the same text.
   */
  private record(
    state: CandidateState,
    kind: 'text' | 'thought',
    length: number,
    signature: string | undefined,
  ): void {
    const last = state.records[state.records.length - 1];
    if (kind === 'thought' || signature !== undefined) state.keepRecords = true;
    if (
      signature === undefined &&
      last !== undefined &&
      last.kind === kind &&
      last.thoughtSignature === undefined
    ) {
      last.length += length;
    } else if (length > 0 || signature !== undefined) {
      state.records.push(
        signature === undefined ? { kind, length } : { kind, length, thoughtSignature: signature },
      );
    }
  }

  private functionCall(
    state: CandidateState,
    generation: Generation,
    part: Record<string, unknown>,
    signature: string | undefined,
    where: string,
  ): void {
    const name = this.read.optionalString(part.name, `${where}.name`);
    const wireId = this.read.optionalString(part.id, `${where}.id`) || undefined;
    const pieces = this.read.optionalArray(part.partialArgs, `${where}.partialArgs`) ?? [];
    const hasArgs = part.args !== undefined && part.args !== null;
    let call = state.open;
    if (name !== undefined && name !== '') {
      // A new call: one still streaming was cut off by it.
      if (call) this.close(state, generation, true);
      call = {
        id: this.callId(state),
        name,
        ordinal: state.calls++,
        wireId,
        signature,
        args: new PartialArgsBuilder(this.errors),
      };
      state.open = call;
      state.records.push({ kind: 'functionCall' });
      addDelta(generation, { id: call.id, index: call.ordinal, name, arguments: '' });
    } else if (!call) {
      if (pieces.length > 0 || hasArgs) {
        throw this.errors.malformed(`${where} continues no function call`);
      }
      // An empty closer with nothing open; a signature on it is kept all the same.
      if (signature !== undefined) this.record(state, 'text', 0, signature);
      return;
    } else if (signature !== undefined) {
      if (call.signature === undefined) call.signature = signature;
      else if (call.signature !== signature) this.record(state, 'text', 0, signature);
    }
    if (hasArgs) call.args.setWhole(part.args);
    pieces.forEach((piece, number) => {
      call.args.add(piece, `${where}.partialArgs[${number}]`);
    });
    if (part.willContinue !== true) this.close(state, generation, call.args.stringOpen);
  }

  /** Emits the open call, complete or `truncated`. */
  private close(state: CandidateState, generation: Generation, truncated: boolean): void {
    const open = state.open;
    if (!open) return;
    state.open = undefined;
    const args = open.args.json();
    const call: ToolCall = { id: open.id, name: open.name, arguments: args };
    const metadata: Metadata = {};
    if (open.signature !== undefined) metadata.thoughtSignature = open.signature;
    if (open.wireId !== undefined) metadata.functionCallId = open.wireId;
    if (truncated) metadata.truncated = true;
    if (Object.keys(metadata).length > 0) call.metadata = metadata;
    generation.output.toolCalls.push(call);
    addDelta(generation, { id: open.id, index: open.ordinal, arguments: args });
  }

  private finish(state: CandidateState, generation: Generation, reason: string | undefined): void {
    if (state.open) this.close(state, generation, true);
    state.finished = true;
    generation.metadata.finishReason =
      reason === undefined
        ? state.calls > 0
          ? FinishReason.TOOL_CALLS
          : null
        : mapGoogleFinishReason(reason, state.calls > 0);
    const metadata: Metadata = {};
    if (state.reasoning !== '') metadata.reasoningContent = state.reasoning;
    if (state.keepRecords) metadata.geminiParts = state.records;
    if (Object.keys(metadata).length > 0) generation.output.metadata = metadata;
  }

  /**
   * `call_` and 24 hex digits of a hash of the response id (or of a random value when the
   * response has none), the candidate's position among those seen and the call's: stable for the
   * same response however its stream was cut, distinct across responses.
   */
  private callId(state: CandidateState): string {
    this.idSeed ??= this.responseId ?? randomUUID();
    const candidate = [...this.candidates.values()].indexOf(state);
    const digest = createHash('sha256')
      .update(`${this.idSeed}\u0000${candidate}\u0000${state.calls}`)
      .digest('hex');
    return `call_${digest.slice(0, 24)}`;
  }
}

function emptyGeneration(): Generation {
  const output: AssistantMessage = { role: 'assistant', text: null, toolCalls: [] };
  return { output, metadata: { finishReason: null } };
}

function addDelta(generation: Generation, delta: ToolCallDelta): void {
  if (generation.toolCallDeltas === undefined) generation.toolCallDeltas = [delta];
  else generation.toolCallDeltas.push(delta);
}

function isEmpty(generation: Generation): boolean {
  return (
    generation.output.text === null &&
    generation.output.toolCalls.length === 0 &&
    generation.toolCallDeltas === undefined &&
    generation.output.metadata === undefined &&
    generation.metadata.finishReason === null
  );
}
