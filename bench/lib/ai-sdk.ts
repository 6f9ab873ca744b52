import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, type ToolSet, tool } from 'ai';
import {
  FINAL_TEXT,
  inputSchema,
  noopTool,
  STREAM_TEXT_DELTAS,
  scriptedCalls,
  type ToolBody,
  toolDescription,
  toolName,
} from './workload.js';

/**
 * The Vercel AI SDK side of the workload: a scripted `LanguageModelV4` (the SDK's own provider
 * extension point, the same object a provider package returns) driven by `generateText` and
 * `streamText` with Zod-validated `tool()`s, so the SDK's real loop, validation and message
 * bookkeeping run.
 */

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

function wantsTools(options: LanguageModelV4CallOptions): boolean {
  return options.prompt[options.prompt.length - 1]?.role === 'user';
}

function toolCallParts(toolCount: number) {
  return scriptedCalls(toolCount).map((call) => ({
    type: 'tool-call' as const,
    toolCallId: call.id,
    toolName: call.name,
    input: call.arguments,
  }));
}

/** The scripted zero-latency model for `toolCount` attached tools. */
export function aiSdkModel(toolCount = 3): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(options): Promise<LanguageModelV4GenerateResult> {
      if (wantsTools(options)) {
        return {
          content: toolCallParts(toolCount),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: FINAL_TEXT }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    async doStream(options) {
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (wantsTools(options)) {
        parts.push(...toolCallParts(toolCount), {
          type: 'finish',
          usage,
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        });
      } else {
        parts.push({ type: 'text-start', id: 't' });
        for (const delta of STREAM_TEXT_DELTAS) parts.push({ type: 'text-delta', id: 't', delta });
        parts.push(
          { type: 'text-end', id: 't' },
          { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
        );
      }
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** `toolCount` Zod-validated tools running `execute` (the no-op by default). */
export function aiSdkTools(toolCount = 3, execute: ToolBody = noopTool): ToolSet {
  const tools: ToolSet = {};
  for (let i = 0; i < toolCount; i++) {
    tools[toolName(i)] = tool({
      description: toolDescription(i),
      inputSchema,
      execute,
    });
  }
  return tools;
}

/** One conversation with `generateText`; resolves with the final text. */
export async function aiSdkCall(
  model: LanguageModelV4,
  tools: ToolSet,
  question: string,
): Promise<string> {
  const result = await generateText({ model, tools, prompt: question, stopWhen: isStepCount(5) });
  return result.text;
}

/** One conversation with `streamText`: its text deltas, as the caller reads them. */
export function aiSdkStream(
  model: LanguageModelV4,
  tools: ToolSet,
  question: string,
): AsyncIterable<string> {
  return streamText({ model, tools, prompt: question, stopWhen: isStepCount(5) }).textStream;
}
