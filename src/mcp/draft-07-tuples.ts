import { transformSchema } from '../internal/tool-schema-adaptation.js';
import type { JsonSchema } from '../tools/index.js';

/**
 * A copy of a schema with every draft-07 tuple in its 2020-12 form: `items: [a, b]` becomes
 * `prefixItems: [a, b]`, and `additionalItems` becomes `items`. Servers whose schemas come from
 * Zod 3 or other draft-07 generators list tuples that way; 2020-12 (which arguments are checked
 * with) allows no array for `items`, so the tool would be refused, although both forms mean the
 * same.
 */
export function withDraft07TuplesRewritten(schema: JsonSchema): JsonSchema {
  return transformSchema(schema, (node) => {
    const current = node as Record<string, unknown>;
    if (!Array.isArray(current.items) || current.prefixItems !== undefined) return;
    current.prefixItems = current.items;
    if ('additionalItems' in current) current.items = current.additionalItems;
    else delete current.items;
    delete current.additionalItems;
  });
}
