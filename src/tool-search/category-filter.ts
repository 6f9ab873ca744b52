import type { ToolReference } from './tool-reference.js';

/**
 * The category test a search applies, or `undefined` when the filter should not narrow anything:
 * no filter given, or no tool of the session carries that category (models guess category
 * names, and a guess that matches nothing must not hide every tool).
 */
export function categoryMatcher(
  references: Iterable<ToolReference>,
  categoryFilter: string | undefined,
): ((reference: ToolReference) => boolean) | undefined {
  if (categoryFilter === undefined || categoryFilter.trim() === '') return undefined;
  const wanted = categoryFilter.trim().toLowerCase();
  const matches = (reference: ToolReference) => reference.category?.toLowerCase() === wanted;
  for (const reference of references) {
    if (matches(reference)) return matches;
  }
  return undefined;
}
