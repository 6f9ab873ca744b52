import { InvalidArgumentError } from '../errors/index.js';
import { toolResultPartProblem } from './tool-result-part.js';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);
/** The fields a message defines: the only keys an error may name (other keys are data). */
const FIELDS: ReadonlySet<string> = new Set([
  'role',
  'text',
  'media',
  'metadata',
  'toolCalls',
  'responses',
]);
const MAX_DEPTH = 1000;

/**
 * Why `value` is not a {@link Message} that a store can hold, or `undefined` when it is one: plain
 * JSON data (plain objects, arrays, strings, finite numbers, booleans, null) with the fields of
 * its role and the right types. The reason names fields, never their contents, so it can go into
 * an error message. Fields a role does not define are allowed (they round-trip as data).
 */
export function messageProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'it is not an object';
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (field === undefined) continue;
    const notJson = jsonProblem(field, FIELDS.has(key) ? key : 'a field', [], 0);
    if (notJson !== undefined) return notJson;
  }
  return shapeProblem(value, true);
}

/**
 * {@link messageProblem} for a value `JSON.parse` just made from `textLength` characters (a stored
 * row): such a value can hold no cycle, no `undefined`, no number that is not finite and no object
 * that is not plain, so of the JSON checks only the nesting depth is left, and only for a text
 * long enough to open and close that many levels. Same answer, a fraction of the work on the read
 * path, where every message of a conversation passes.
 */
export function parsedMessageProblem(value: unknown, textLength: number): string | undefined {
  if (!isPlainObject(value)) return 'it is not an object';
  // Too deep needs MAX_DEPTH + 1 containers inside a field, inside the message: that many
  // brackets opened and closed.
  if (textLength >= 2 * (MAX_DEPTH + 2)) {
    for (const key in value) {
      const notJson = depthProblem(value[key], FIELDS.has(key) ? key : 'a field', 0);
      if (notJson !== undefined) return notJson;
    }
  }
  return shapeProblem(value, true);
}

/**
 * Why `value` is not a {@link Message} a chat model can send, or `undefined`: the fields of its
 * role with the right types, checked without walking their contents (the cheap check a provider
 * adapter runs on every request). A tool call's `arguments` may be any value: a call a server sent
 * with non-text arguments stays in the transcript (it was refused, never run) and goes back as it
 * came. The reason names fields, never their contents.
 */
export function messageShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'it is not an object';
  }
  return shapeProblem(value as Record<string, unknown>, false);
}

/**
 * Throws an `InvalidArgumentError` naming the first of `messages` that is not a message a chat
 * model can send (see {@link messageShapeProblem}), e.g. "openai: messages[2] (tool) is not a
 * valid message: responses is not an array". `who` starts the message (the provider's name).
 */
export function assertSendableMessages(messages: unknown, who: string): void {
  if (!Array.isArray(messages)) {
    throw new InvalidArgumentError(`${who}: the prompt's messages must be an array`);
  }
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    const problem = messageShapeProblem(message);
    if (problem === undefined) continue;
    const role = (message as { role?: unknown } | null)?.role;
    const named = typeof role === 'string' && ROLES.has(role) ? ` (${role})` : '';
    throw new InvalidArgumentError(
      `${who}: messages[${index}]${named} is not a valid message: ${problem}`,
    );
  }
}

function shapeProblem(
  message: Record<string, unknown>,
  textArguments: boolean,
): string | undefined {
  const role = message.role;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    return 'role is not one of system, user, assistant, tool';
  }
  const metadata = optionalObject(message, 'metadata', 'metadata');
  if (metadata !== undefined) return metadata;
  switch (role) {
    case 'system':
      return stringField(message, 'text', 'text');
    case 'user':
      return stringField(message, 'text', 'text') ?? arrayOf(message, 'media', mediaProblem, true);
    case 'assistant':
      return (
        (message.text === null ? undefined : stringField(message, 'text', 'text')) ??
        arrayOf(message, 'toolCalls', textArguments ? toolCallProblem : sentToolCallProblem, false)
      );
    default:
      return arrayOf(message, 'responses', toolResponseProblem, false);
  }
}

/** The nesting check of {@link jsonProblem} alone, for what `JSON.parse` made. */
function depthProblem(value: unknown, field: string, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_DEPTH) return `${field} is nested deeper than ${MAX_DEPTH} levels`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = depthProblem(value[index], field, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  for (const key in value) {
    const problem = depthProblem((value as Record<string, unknown>)[key], field, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Why a value is not plain JSON data, or `undefined`. `field` names the message field it sits in
 * (nested keys are data, so they are not named). `ancestors` catches cycles.
 */
function jsonProblem(
  value: unknown,
  field: string,
  ancestors: unknown[],
  depth: number,
): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${field} holds a number that is not finite`;
    case 'object': {
      if (value === null) return undefined;
      if (depth >= MAX_DEPTH) return `${field} is nested deeper than ${MAX_DEPTH} levels`;
      if (ancestors.includes(value)) return `${field} refers to itself`;
      ancestors.push(value);
      try {
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            const item = value[index];
            if (item === undefined) return `${field} holds an undefined array item`;
            const problem = jsonProblem(item, field, ancestors, depth + 1);
            if (problem !== undefined) return problem;
          }
          return undefined;
        }
        if (!isPlainObject(value)) return `${field} holds an object that is not plain JSON data`;
        for (const key of Object.keys(value)) {
          const item = value[key];
          if (item === undefined) continue;
          const problem = jsonProblem(item, field, ancestors, depth + 1);
          if (problem !== undefined) return problem;
        }
        return undefined;
      } finally {
        ancestors.pop();
      }
    }
    default:
      return `${field} holds a ${typeof value}, which is not JSON data`;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function stringField(
  record: Record<string, unknown>,
  key: string,
  path: string,
): string | undefined {
  return typeof record[key] === 'string' ? undefined : `${path} is not a string`;
}

function optionalObject(
  record: Record<string, unknown>,
  key: string,
  path: string,
): string | undefined {
  const value = record[key];
  return value === undefined || isPlainObject(value) ? undefined : `${path} is not an object`;
}

function arrayOf(
  record: Record<string, unknown>,
  key: string,
  itemProblem: (item: Record<string, unknown>, path: string) => string | undefined,
  optional: boolean,
): string | undefined {
  const value = record[key];
  if (value === undefined && optional) return undefined;
  if (!Array.isArray(value)) return `${key} is not an array`;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    const path = `${key}[${index}]`;
    if (!isPlainObject(item)) return `${path} is not an object`;
    const problem = itemProblem(item, path);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function mediaProblem(media: Record<string, unknown>, path: string): string | undefined {
  return (
    stringField(media, 'mimeType', `${path}.mimeType`) ?? stringField(media, 'data', `${path}.data`)
  );
}

function toolCallProblem(call: Record<string, unknown>, path: string): string | undefined {
  return (
    stringField(call, 'id', `${path}.id`) ??
    stringField(call, 'name', `${path}.name`) ??
    stringField(call, 'arguments', `${path}.arguments`) ??
    optionalObject(call, 'metadata', `${path}.metadata`)
  );
}

/** {@link toolCallProblem} with `arguments` of any value. */
function sentToolCallProblem(call: Record<string, unknown>, path: string): string | undefined {
  return (
    stringField(call, 'id', `${path}.id`) ??
    stringField(call, 'name', `${path}.name`) ??
    optionalObject(call, 'metadata', `${path}.metadata`)
  );
}

function toolResponseProblem(response: Record<string, unknown>, path: string): string | undefined {
  const isError = response.isError;
  return (
    stringField(response, 'id', `${path}.id`) ??
    stringField(response, 'name', `${path}.name`) ??
    stringField(response, 'responseData', `${path}.responseData`) ??
    (isError === undefined || typeof isError === 'boolean'
      ? undefined
      : `${path}.isError is not a boolean`) ??
    contentProblem(response.content, path)
  );
}

function contentProblem(content: unknown, path: string): string | undefined {
  if (content === undefined) return undefined;
  if (!Array.isArray(content)) return `${path}.content is not an array`;
  for (let index = 0; index < content.length; index++) {
    const problem = toolResultPartProblem(content[index]);
    if (problem !== undefined) return `${path}.content[${index}] is not a valid part: ${problem}`;
  }
  return undefined;
}
