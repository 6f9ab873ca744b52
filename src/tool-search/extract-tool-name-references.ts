import type { Message } from '../messages/index.js';
import { TOOL_SEARCH_TOOL_NAME } from './tool-search-tool.js';

/**
 * The tool names found by the search tool in these messages, in order of discovery (first found
 * first, no repeats). With `accumulate` false only the last message holding search results counts
 * (all parallel searches in it). Results that are not a JSON array of strings (an error response,
 * a hand-written message) are skipped.
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
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((name): name is string => typeof name === 'string');
}
