/**
 * One key segment in the canonical kebab case, so that relaxed spellings match:
 * `maxTotalToolCalls`, `max_total_tool_calls` and `MAX-TOTAL-TOOL-CALLS` → `max-total-tool-calls`.
 */
export function kebabSegment(segment: string): string {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}
