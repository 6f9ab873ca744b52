import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { UsageError } from './usage-error.js';

/** One response of a script file: a text, or tool calls. */
type ScriptStep =
  | { text: string }
  | { toolCalls: { id?: string; name: string; arguments?: unknown }[] };

/**
 * A `ScriptedChatModel` that plays the responses of a JSON file, in order, one per model call:
 * `[{ "toolCalls": [{ "name": "getWeather", "arguments": { "city": "Paris" } }] }, { "text": "Sunny." }]`.
 * The scripted model answers without any provider, for trying tools and recording sessions.
 */
export async function scriptedModelFromFile(
  path: string,
  cwd: string = process.cwd(),
): Promise<ScriptedChatModel> {
  let steps: unknown;
  try {
    steps = JSON.parse(await readFile(resolve(cwd, path), 'utf8'));
  } catch (error) {
    throw new UsageError(`--script ${path}: ${(error as Error).message}`);
  }
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new UsageError(`--script ${path}: expected a non-empty JSON array of responses`);
  }
  let callNumber = 0;
  const responses = steps.map((step: ScriptStep, index) => {
    if (
      typeof step === 'object' &&
      step !== null &&
      'text' in step &&
      typeof step.text === 'string'
    ) {
      return textResponse(step.text);
    }
    if (
      typeof step === 'object' &&
      step !== null &&
      'toolCalls' in step &&
      Array.isArray(step.toolCalls)
    ) {
      return toolCallResponse(
        step.toolCalls.map((call) => {
          if (typeof call?.name !== 'string') {
            throw new UsageError(
              `--script ${path}: response ${index + 1} has a tool call without a name`,
            );
          }
          callNumber += 1;
          return {
            id: call.id ?? `call-${callNumber}`,
            name: call.name,
            arguments:
              typeof call.arguments === 'string'
                ? call.arguments
                : JSON.stringify(call.arguments ?? {}),
          };
        }),
      );
    }
    throw new UsageError(
      `--script ${path}: response ${index + 1} must be { "text": … } or { "toolCalls": [ … ] }`,
    );
  });
  return new ScriptedChatModel(responses);
}
