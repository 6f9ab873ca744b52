import type { ChatModelError } from '../errors/index.js';
import type { ProviderErrors } from '../internal/provider-errors.js';
import { isRecord } from '../internal/wire-reader.js';
import { FinishReason, type Usage } from '../model/index.js';

/** Candidate indexes accepted in a response or stream: 0 to 99 (the API returns at most 8). */
export const MAX_GOOGLE_CANDIDATES = 100;

/** Reasons of a candidate that a safety or content policy stopped. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Maps a candidate's `finishReason` to toolloop's finish reasons. Gemini says `STOP` for a turn
 * that ends in function calls too: with calls it is `tool_calls`.
 */
export function mapGoogleFinishReason(reason: string, hasToolCalls: boolean): FinishReason {
  if (reason === 'STOP') return hasToolCalls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
  if (reason === 'MAX_TOKENS') return FinishReason.LENGTH;
  if (FILTERED.has(reason)) return FinishReason.CONTENT_FILTER;
  return FinishReason.OTHER;
}

/**
 * Maps `usageMetadata` to {@link Usage}: thoughts count as output tokens (Gemini bills them so,
 * and its `totalTokenCount` includes them) and again as `reasoningTokens`. `undefined` when it
 * carries no count (Vertex AI's early stream lines).
 */
export function mapGoogleUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = count(value.promptTokenCount);
  const candidates = count(value.candidatesTokenCount);
  const thoughts = count(value.thoughtsTokenCount);
  const total = count(value.totalTokenCount);
  if (prompt === undefined && candidates === undefined && total === undefined) return undefined;
  const promptTokens = (prompt ?? 0) + (count(value.toolUsePromptTokenCount) ?? 0);
  const completionTokens = (candidates ?? 0) + (thoughts ?? 0);
  const usage: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: total ?? promptTokens + completionTokens,
  };
  const cached = count(value.cachedContentTokenCount);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  return usage;
}

/** The error an `error` object inside a 200 body or a stream event stands for. */
export function googleReportedError(
  error: unknown,
  errors: ProviderErrors,
  where: 'response' | 'stream',
): ChatModelError {
  const record = isRecord(error) ? error : {};
  const status = typeof record.status === 'string' ? record.status : 'error';
  const code =
    typeof record.code === 'number' && Number.isInteger(record.code) ? record.code : undefined;
  const message =
    typeof record.message === 'string' ? record.message : 'the provider reported an error';
  return errors.create({
    message: `${errors.provider} ${where} reported an error`,
    detail: `${status}: ${message}`,
    status: code !== undefined && code >= 400 && code < 600 ? code : undefined,
    retryable:
      /RESOURCE_EXHAUSTED|UNAVAILABLE|INTERNAL|DEADLINE_EXCEEDED/.test(status) ||
      code === 429 ||
      (code !== undefined && code >= 500),
  });
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
