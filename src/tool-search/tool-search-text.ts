import { splitIdentifier } from '../internal/search-text/words.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolReference } from './tool-reference.js';

const MAX_SCHEMA_DEPTH = 4;

/** Parameter names and descriptions of an input schema, nested objects and array items included. */
export function schemaParameterText(schema: JsonSchema | undefined): string {
  const { names, descriptions } = schemaParameterFields(schema);
  const parts: string[] = [];
  names.forEach((name, i) => {
    parts.push(splitIdentifier(name).join(' '));
    const description = descriptions[i];
    if (description !== undefined && description !== '') parts.push(description);
  });
  return parts.join(' ');
}

/**
 * The parameter names of an input schema and, at the same positions, their descriptions (`''`
 * when a parameter has none); nested objects and array items included, at most 4 levels deep.
 */
export function schemaParameterFields(schema: JsonSchema | undefined): {
  names: string[];
  descriptions: string[];
} {
  const fields = { names: [] as string[], descriptions: [] as string[] };
  collectParameterFields(schema, fields, 0);
  return fields;
}

function collectParameterFields(
  schema: unknown,
  fields: { names: string[]; descriptions: string[] },
  depth: number,
): void {
  if (depth > MAX_SCHEMA_DEPTH || typeof schema !== 'object' || schema === null) return;
  const node = schema as JsonSchema;
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, property] of Object.entries(node.properties)) {
      fields.names.push(name);
      fields.descriptions.push(
        typeof property?.description === 'string' ? property.description : '',
      );
      collectParameterFields(property, fields, depth + 1);
    }
  }
  if (Array.isArray(node.items)) {
    for (const item of node.items) collectParameterFields(item, fields, depth + 1);
  } else {
    collectParameterFields(node.items, fields, depth + 1);
  }
}

/** The text fields an index matches for one tool. */
export interface ToolSearchDocument {
  readonly name: string;
  readonly description: string;
  readonly parameters: string;
}

/** Builds the searchable text of a tool reference. */
export function toolSearchDocument(reference: ToolReference): ToolSearchDocument {
  return {
    name: splitIdentifier(reference.toolName).join(' '),
    description: reference.summary,
    parameters: schemaParameterText(reference.inputSchema),
  };
}

/**
 * The text `VectorToolIndex` embeds for a tool by default: its name split into words, its
 * description, and its parameters' names and descriptions, one part a line. Build a `toolText` of
 * your own on it (say, to add examples of requests), or embed tools ahead of time with it.
 */
export function toolSearchText(reference: ToolReference): string {
  const document = toolSearchDocument(reference);
  return [document.name, document.description, document.parameters]
    .filter((part) => part.length > 0)
    .join('\n');
}

/** True when the string has no non-whitespace character. */
export function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim().length === 0;
}
