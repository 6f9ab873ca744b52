import { splitIdentifier } from '../internal/search-text/words.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolReference } from './tool-reference.js';

const MAX_SCHEMA_DEPTH = 4;

/** Parameter names and descriptions of an input schema, nested objects and array items included. */
export function schemaParameterText(schema: JsonSchema | undefined): string {
  const parts: string[] = [];
  collectParameterText(schema, parts, 0);
  return parts.join(' ');
}

function collectParameterText(schema: unknown, parts: string[], depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH || typeof schema !== 'object' || schema === null) return;
  const node = schema as JsonSchema;
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, property] of Object.entries(node.properties)) {
      parts.push(splitIdentifier(name).join(' '));
      if (typeof property?.description === 'string') parts.push(property.description);
      collectParameterText(property, parts, depth + 1);
    }
  }
  if (Array.isArray(node.items)) {
    for (const item of node.items) collectParameterText(item, parts, depth + 1);
  } else {
    collectParameterText(node.items, parts, depth + 1);
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

/** The whole searchable text of a tool in one string (for embedding). */
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
