import {
  type CallAdvisor,
  type CallAdvisorChain,
  type ChatClientRequest,
  type ChatClientResponse,
  DEFAULT_TOOL_CALLING_ADVISOR_ORDER,
} from '../advisors/index.js';
import {
  InvalidArgumentError,
  StructuredOutputError,
  type ToolInputIssue,
} from '../errors/index.js';
import { addUsage, augmentSystemMessage, responseText, type Usage } from '../model/index.js';
import {
  type OutputSchema,
  type ResolvedOutputSchema,
  resolveOutputSchema,
} from './output-schema.js';
import { parseJsonAnswer } from './parse-json-answer.js';

/**
 * Response-context key under which {@link StructuredOutputAdvisor} leaves the validated value.
 */
export const STRUCTURED_OUTPUT_VALUE_KEY = 'toolloop.structured-output.value';

/**
 * The option key provider adapters map to their native structured-output parameter
 * (`response_format: { type: 'json_schema', json_schema: { name, schema } }` for OpenAI).
 */
export const RESPONSE_FORMAT_OPTION = 'responseFormat';

/** The value set on `options.responseFormat` for a structured-output request. */
export interface JsonSchemaResponseFormat {
  type: 'json_schema';
  name: string;
  schema: Record<string, unknown>;
}

/** Options of `entity()` and of {@link StructuredOutputAdvisor}. */
export interface StructuredOutputOptions {
  /** Name of the format sent to the model. Default `'response'`. */
  name?: string;
  /** Answers sent back for correction before giving up. Default 2. */
  maxRetries?: number;
  /** Advisor order. Default {@link StructuredOutputAdvisor.DEFAULT_ORDER}. */
  order?: number;
}

function listIssues(issues: readonly ToolInputIssue[]): string {
  return issues
    .map((issue) => `- ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
    .join('\n');
}

/**
 * Structured output as a recursive advisor. It asks for JSON matching a schema (the
 * `responseFormat` option plus an instruction appended to the system message), checks the final
 * answer, and on failure re-enters the rest of the chain (`chain.copy(this)`) with the answer and
 * a user message listing the problems, up to `maxRetries` times; then it throws a
 * {@link StructuredOutputError}. Usage is summed over the attempts.
 *
 * Its default order sits just outside the tool loop (and inside the default memory advisor): every
 * answer it checks is a final answer, a retry may call tools again, and memory stores only the
 * user's question and the accepted answer.
 */
export class StructuredOutputAdvisor implements CallAdvisor {
  /** `DEFAULT_TOOL_CALLING_ADVISOR_ORDER - 50`: outside the tool loop, inside default memory. */
  static readonly DEFAULT_ORDER = DEFAULT_TOOL_CALLING_ADVISOR_ORDER - 50;

  readonly name = 'Structured Output Advisor';
  readonly order: number;
  readonly maxRetries: number;
  private readonly schema: ResolvedOutputSchema;
  private readonly formatName: string;

  constructor(schema: OutputSchema, options: StructuredOutputOptions = {}) {
    const maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new InvalidArgumentError('maxRetries must be a non-negative integer');
    }
    this.schema = resolveOutputSchema(schema);
    this.maxRetries = maxRetries;
    this.order = options.order ?? StructuredOutputAdvisor.DEFAULT_ORDER;
    this.formatName = options.name ?? 'response';
  }

  async adviseCall(
    request: ChatClientRequest,
    chain: CallAdvisorChain,
  ): Promise<ChatClientResponse> {
    const responseFormat: JsonSchemaResponseFormat = {
      type: 'json_schema',
      name: this.formatName,
      schema: this.schema.jsonSchema,
    };
    const instruction = `Answer with one JSON value that conforms to this JSON Schema, and nothing else (no prose, no code fence):\n${JSON.stringify(this.schema.jsonSchema)}`;
    let current: ChatClientRequest = {
      ...request,
      prompt: {
        messages: augmentSystemMessage(request.prompt.messages, (system) => ({
          ...system,
          text: system.text === '' ? instruction : `${system.text}\n\n${instruction}`,
        })),
        options: { ...request.prompt.options, [RESPONSE_FORMAT_OPTION]: responseFormat },
      },
    };
    let usage: Usage | undefined;
    for (let attempt = 1; ; attempt++) {
      const response = await chain.copy(this).nextCall(current);
      usage = addUsage(usage, response.chatResponse?.metadata.usage);
      const text = responseText(response.chatResponse);
      const parsed = parseJsonAnswer(text);
      const checked = parsed.ok ? await this.schema.validate(parsed.value) : parsed;
      if (checked.ok) {
        const chatResponse = response.chatResponse && {
          ...response.chatResponse,
          metadata: { ...response.chatResponse.metadata, ...(usage && { usage }) },
        };
        return {
          chatResponse,
          context: { ...response.context, [STRUCTURED_OUTPUT_VALUE_KEY]: checked.value },
        };
      }
      if (attempt > this.maxRetries) {
        throw new StructuredOutputError({
          issues: checked.issues,
          rawText: text,
          attempts: attempt,
        });
      }
      current = {
        ...current,
        prompt: {
          ...current.prompt,
          messages: [
            ...current.prompt.messages,
            { role: 'assistant', text, toolCalls: [] },
            {
              role: 'user',
              text: `Your answer did not match the required JSON Schema:\n${listIssues(checked.issues)}\nAnswer again with only the corrected JSON value.`,
            },
          ],
        },
      };
    }
  }
}
