import type { Message } from '../messages/index.js';
import { TOOL_SEARCH_TOOL_NAME } from './tool-search-tool-name.js';

/**
 * The tool names found by the search tool in these messages, in order of discovery (first found
 * first, no repeats). With `accumulate` false only the last message holding search results counts
 * (all parallel searches in it). A result is the search tool's `{"found": [...]}` object or a
 * plain JSON array of names (Spring AI's format); anything else (an error response, a
 * hand-written message) is skipped.
 */
export function extractToolNameReferences(
  messages: readonly Message[],
  accumulate: boolean,
): string[] {
  const searchMessages: string[][] = [];
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const found: string[] = [];
    let hasSearch = false;
    for (const response of message.responses) {
      if (response.name.toLowerCase() !== TOOL_SEARCH_TOOL_NAME.toLowerCase()) continue;
      hasSearch = true;
      if (response.isError === true) continue;
      found.push(...parseNames(response.responseData));
    }
    if (hasSearch) searchMessages.push(found);
  }
  const counted = accumulate ? searchMessages : searchMessages.slice(-1);
  return [...new Set(counted.flat())];
}

function parseNames(responseData: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(responseData);
  } catch {
    return [];
  }
  const names =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as { found?: unknown }).found
      : parsed;
  if (!Array.isArray(names)) return [];
  return names.filter((name): name is string => typeof name === 'string');
}
