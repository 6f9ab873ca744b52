import {
  formatByteSize,
  type ToolCall,
  type ToolResponse,
  type ToolResultPart,
  toolResultPartBytes,
  toolResultPartsText,
} from '../messages/index.js';
import type { ToolResult } from '../tools/tool-result.js';
import { toolResultProblem } from '../tools/tool-result.js';
import { capToolResultText } from './cap-tool-result-text.js';

/** Default `maxResultMediaBytes` of the tool-calling manager: 10 MiB of inline media per result. */
export const DEFAULT_MAX_TOOL_RESULT_MEDIA_BYTES = 10 * 1024 * 1024;

/** The caps a result is held to. */
export interface ToolResultCaps {
  /** Largest text handed to the model, in UTF-8 bytes (see `capToolResultText`). */
  readonly maxResultBytes: number;
  /** Largest sum of inline media bytes (images, audio, files) of one result. */
  readonly maxResultMediaBytes: number;
}

/**
 * The successful response of a call whose callback resolved to a {@link ToolResult} object, or
 * the reason it cannot be one: a result that is not valid (see `toolResultProblem`), or inline
 * media over `maxResultMediaBytes`. Text is capped as any result text is: each text part within
 * what is left of `maxResultBytes`, then the text form.
 */
export function richToolResponse(
  call: ToolCall,
  value: object,
  caps: ToolResultCaps,
): { response: ToolResponse } | { problem: string } {
  const problem = toolResultProblem(value);
  if (problem !== undefined) {
    return { problem: `Tool '${call.name}' returned a result that is not valid: ${problem}.` };
  }
  const result = value as ToolResult;
  const response: ToolResponse = { id: call.id, name: call.name, responseData: '' };
  const given = result.content;
  if (given !== undefined && given.length > 0) {
    let media = 0;
    for (const part of given) if (part.type !== 'text') media += toolResultPartBytes(part);
    if (media > caps.maxResultMediaBytes) {
      return {
        problem: `Tool '${call.name}' returned ${formatByteSize(media)} of media (${describeMedia(given)}); the limit is ${formatByteSize(caps.maxResultMediaBytes)} per result. Nothing of it was kept.`,
      };
    }
    const content = capTextParts(given, caps.maxResultBytes);
    response.content = content;
    response.responseData = capToolResultText(
      content === given ? result.text : toolResultPartsText(content),
      caps.maxResultBytes,
    );
  } else {
    response.responseData = capToolResultText(result.text, caps.maxResultBytes);
  }
  if (result.structuredContent !== undefined) {
    response.structuredContent = result.structuredContent;
  }
  return { response };
}

function capTextParts(parts: readonly ToolResultPart[], maxBytes: number): ToolResultPart[] {
  let left = maxBytes;
  let changed = false;
  const capped = parts.map((part) => {
    if (part.type !== 'text') return part;
    const text = capToolResultText(part.text, Math.max(left, 256));
    left -= Buffer.byteLength(text, 'utf8');
    if (text === part.text) return part;
    changed = true;
    return { type: 'text' as const, text };
  });
  return changed ? capped : (parts as ToolResultPart[]);
}

function describeMedia(parts: readonly ToolResultPart[]): string {
  return parts
    .filter((part) => part.type !== 'text' && part.type !== 'resource-link')
    .map(
      (part) =>
        `${part.type} ${'mediaType' in part ? part.mediaType : ''} ${formatByteSize(toolResultPartBytes(part))}`,
    )
    .join(', ');
}
