import type { ServerResponse } from 'node:http';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type AIMessageChunk, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { Agent, tool as agentsTool, OpenAIChatCompletionsModel, Runner } from '@openai/agents';
import { isStepCount, type LanguageModel, streamText } from 'ai';
import { createParser } from 'eventsource-parser';
import OpenAI from 'openai';
import { ChatClient, type ChatModel, pipeServerSentEvents, tool } from 'toolloop';
import { AnthropicChatModel } from 'toolloop/anthropic';
import { OpenAiChatModel } from 'toolloop/openai';
import { z } from 'zod';
import { aiSdkTools } from '../ai-sdk.js';
import { langChainTools } from '../langchain.js';
import {
  inputSchema,
  noopTool,
  PARALLEL_CALLS,
  QUESTION,
  toolDescription,
  toolName,
} from '../workload.js';
import type { WireFormat } from './provider-wire.js';

/**
 * The contestants of the end-to-end benchmark, as a web server runs them: each handles one
 * conversation for one HTTP request, calls the fake provider (round 1: three streamed tool calls,
 * the tools run; round 2: streamed text) and relays every text delta to its client as a
 * server-sent event. toolloop relays with its own helper (`pipeServerSentEvents`); the others
 * write the same frames (`data: <JSON string>`, then `event: done`) with back-pressure, so
 * the frames on the wire are the same and only the frameworks differ.
 */

/** One contestant's handler: runs one conversation and relays it to `response`. */
export type RelayHandler = (response: ServerResponse) => Promise<void>;

/** A contestant as the benchmark lists it. */
export interface RelayContestant {
  id: string;
  label: string;
  format: WireFormat;
  /** Builds the framework objects once, against the fake provider at `providerUrl`. */
  setup(providerUrl: string): RelayHandler;
}

const MODEL = 'bench-model';
// The AI SDK warns on stderr about every request to a model id it does not know.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const API_KEY = 'bench-key';
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};
const DONE_FRAME = 'event: done\ndata: [DONE]\n\n';

function startEvents(response: ServerResponse): void {
  response.writeHead(200, SSE_HEADERS);
  response.flushHeaders();
}

/** Writes one text frame; returns a promise only when the client is behind (back-pressure). */
function writeText(response: ServerResponse, text: string): Promise<void> | undefined {
  if (response.write(`data: ${JSON.stringify(text)}\n\n`)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

async function relayText(response: ServerResponse, texts: AsyncIterable<string>): Promise<void> {
  startEvents(response);
  for await (const text of texts) {
    if (text === '') continue;
    const drained = writeText(response, text);
    if (drained) await drained;
  }
  response.end(DONE_FRAME);
}

// The hand-written loop: fetch, eventsource-parser, JSON.parse, Zod, nothing else.

const toolInputJsonSchema = z.toJSONSchema(inputSchema);

async function runHandTool(name: string, args: string): Promise<string> {
  const index = Number(name.slice(name.lastIndexOf('_') + 1));
  if (name !== toolName(index) || index >= PARALLEL_CALLS) return 'Unknown tool';
  let input: unknown;
  try {
    input = JSON.parse(args);
  } catch {
    return 'Arguments are not JSON';
  }
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) return parsed.error.message;
  return noopTool(parsed.data);
}

interface HandCall {
  id: string;
  name: string;
  arguments: string;
}

/** Reads an SSE body, handing each event's data to `onData`; writes the queued texts between reads. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
  texts: string[],
  response: ServerResponse,
): Promise<void> {
  const parser = createParser({ onEvent: (event) => onData(event.data) });
  const decoder = new TextDecoder();
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    for (let i = 0; i < texts.length; i++) {
      const drained = writeText(response, texts[i]!);
      if (drained) await drained;
    }
    texts.length = 0;
  }
}

function handWrittenOpenAi(providerUrl: string): RelayHandler {
  const url = `${providerUrl}/openai/chat/completions`;
  const tools = Array.from({ length: PARALLEL_CALLS }, (_, i) => ({
    type: 'function',
    function: {
      name: toolName(i),
      description: toolDescription(i),
      parameters: toolInputJsonSchema,
    },
  }));
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` };
  return async (response) => {
    startEvents(response);
    const messages: unknown[] = [{ role: 'user', content: QUESTION }];
    for (;;) {
      const answer = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: MODEL, messages, tools, stream: true }),
      });
      if (!answer.ok || answer.body === null) throw new Error(`provider: HTTP ${answer.status}`);
      const calls: HandCall[] = [];
      const texts: string[] = [];
      await readEvents(
        answer.body,
        (data) => {
          if (data === '[DONE]') return;
          const delta = JSON.parse(data).choices[0]?.delta;
          if (delta === undefined) return;
          if (delta.content) texts.push(delta.content);
          if (delta.tool_calls === undefined) return;
          for (const part of delta.tool_calls) {
            let call = calls[part.index];
            if (call === undefined) {
              call = { id: '', name: '', arguments: '' };
              calls[part.index] = call;
            }
            if (part.id) call.id = part.id;
            if (part.function?.name) call.name = part.function.name;
            if (part.function?.arguments) call.arguments += part.function.arguments;
          }
        },
        texts,
        response,
      );
      if (calls.length === 0) break;
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      });
      const results = await Promise.all(
        calls.map((call) => runHandTool(call.name, call.arguments)),
      );
      for (let i = 0; i < calls.length; i++) {
        messages.push({ role: 'tool', tool_call_id: calls[i]!.id, content: results[i] });
      }
    }
    response.end(DONE_FRAME);
  };
}

function handWrittenAnthropic(providerUrl: string): RelayHandler {
  const url = `${providerUrl}/anthropic/v1/messages`;
  const tools = Array.from({ length: PARALLEL_CALLS }, (_, i) => ({
    name: toolName(i),
    description: toolDescription(i),
    input_schema: toolInputJsonSchema,
  }));
  const headers = {
    'content-type': 'application/json',
    'x-api-key': API_KEY,
    'anthropic-version': '2023-06-01',
  };
  return async (response) => {
    startEvents(response);
    const messages: unknown[] = [{ role: 'user', content: QUESTION }];
    for (;;) {
      const answer = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: MODEL, max_tokens: 1024, messages, tools, stream: true }),
      });
      if (!answer.ok || answer.body === null) throw new Error(`provider: HTTP ${answer.status}`);
      const calls: HandCall[] = [];
      const texts: string[] = [];
      await readEvents(
        answer.body,
        (data) => {
          const event = JSON.parse(data);
          if (event.type === 'content_block_delta') {
            if (event.delta.type === 'text_delta') texts.push(event.delta.text);
            else if (event.delta.type === 'input_json_delta') {
              calls[event.index]!.arguments += event.delta.partial_json;
            }
          } else if (
            event.type === 'content_block_start' &&
            event.content_block.type === 'tool_use'
          ) {
            const block = event.content_block;
            calls[event.index] = { id: block.id, name: block.name, arguments: '' };
          }
        },
        texts,
        response,
      );
      const used = calls.filter((call) => call !== undefined);
      if (used.length === 0) break;
      messages.push({
        role: 'assistant',
        content: used.map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: JSON.parse(call.arguments || '{}'),
        })),
      });
      const results = await Promise.all(used.map((call) => runHandTool(call.name, call.arguments)));
      messages.push({
        role: 'user',
        content: used.map((call, i) => ({
          type: 'tool_result',
          tool_use_id: call.id,
          content: results[i],
        })),
      });
    }
    response.end(DONE_FRAME);
  };
}

/** toolloop with `model`: each conversation streamed to the client by `pipeServerSentEvents`. */
function toolloopRelay(model: ChatModel): RelayHandler {
  const client = ChatClient.create(model);
  const tools = Array.from({ length: PARALLEL_CALLS }, (_, i) =>
    tool({ name: toolName(i), description: toolDescription(i), inputSchema, execute: noopTool }),
  );
  return (response) =>
    pipeServerSentEvents(
      client
        .prompt(QUESTION)
        .tools(...tools)
        .stream(),
      response,
    );
}

function aiSdkRelay(model: LanguageModel): RelayHandler {
  const tools = aiSdkTools(PARALLEL_CALLS);
  return (response) =>
    relayText(
      response,
      streamText({
        model,
        tools,
        prompt: QUESTION,
        maxOutputTokens: 1024,
        stopWhen: isStepCount(5),
      }).textStream,
    );
}

/** Every contestant, the OpenAI-format ones first. */
export const RELAY_CONTESTANTS: RelayContestant[] = [
  {
    id: 'hand-written-openai',
    label: 'hand-written loop (fetch + eventsource-parser + JSON.parse)',
    format: 'openai',
    setup: handWrittenOpenAi,
  },
  {
    id: 'toolloop-openai',
    label: 'toolloop `OpenAiChatModel` + `pipeServerSentEvents`',
    format: 'openai',
    setup: (providerUrl) =>
      toolloopRelay(
        new OpenAiChatModel({ baseUrl: `${providerUrl}/openai`, apiKey: API_KEY, model: MODEL }),
      ),
  },
  {
    id: 'ai-sdk-openai',
    label: 'Vercel AI SDK `streamText` + `@ai-sdk/openai-compatible`',
    format: 'openai',
    setup(providerUrl) {
      const provider = createOpenAICompatible({
        name: 'bench',
        baseURL: `${providerUrl}/openai`,
        apiKey: API_KEY,
      });
      return aiSdkRelay(provider.chatModel(MODEL));
    },
  },
  {
    id: 'openai-agents',
    label: 'OpenAI Agents SDK `run(…, {stream: true})` + `openai` client (Chat Completions)',
    format: 'openai',
    setup(providerUrl) {
      const client = new OpenAI({ baseURL: `${providerUrl}/openai`, apiKey: API_KEY });
      const agent = new Agent({
        name: 'bench',
        model: new OpenAIChatCompletionsModel(client, MODEL),
        tools: Array.from({ length: PARALLEL_CALLS }, (_, i) =>
          agentsTool({
            name: toolName(i),
            description: toolDescription(i),
            parameters: inputSchema,
            execute: noopTool,
          }),
        ),
      });
      const runner = new Runner({ tracingDisabled: true });
      return async (response) => {
        const result = await runner.run(agent, QUESTION, { stream: true });
        await relayText(response, result.toTextStream() as AsyncIterable<string>);
        await result.completed;
      };
    },
  },
  {
    id: 'langchain-openai',
    label: 'LangChain.js `ChatOpenAI` (bindTools + `.stream()` + `tool.invoke` loop)',
    format: 'openai',
    setup(providerUrl) {
      const tools = langChainTools();
      const byName = new Map(tools.map((entry) => [entry.name, entry]));
      const model = new ChatOpenAI({
        model: MODEL,
        apiKey: API_KEY,
        configuration: { baseURL: `${providerUrl}/openai` },
      }).bindTools(tools);
      return async (response) => {
        startEvents(response);
        const messages: BaseMessage[] = [new HumanMessage(QUESTION)];
        for (;;) {
          let full: AIMessageChunk | undefined;
          for await (const chunk of await model.stream(messages)) {
            full = full === undefined ? chunk : full.concat(chunk);
            if (typeof chunk.content === 'string' && chunk.content !== '') {
              const drained = writeText(response, chunk.content);
              if (drained) await drained;
            }
          }
          if (full === undefined) throw new Error('the model sent nothing');
          messages.push(full);
          const calls = full.tool_calls ?? [];
          if (calls.length === 0) break;
          const results = await Promise.all(
            calls.map((call) => byName.get(call.name)!.invoke(call) as Promise<BaseMessage>),
          );
          messages.push(...results);
        }
        response.end(DONE_FRAME);
      };
    },
  },
  {
    id: 'hand-written-anthropic',
    label: 'hand-written loop (fetch + eventsource-parser + JSON.parse)',
    format: 'anthropic',
    setup: handWrittenAnthropic,
  },
  {
    id: 'toolloop-anthropic',
    label: 'toolloop `AnthropicChatModel` + `pipeServerSentEvents`',
    format: 'anthropic',
    setup: (providerUrl) =>
      toolloopRelay(
        new AnthropicChatModel({
          baseUrl: `${providerUrl}/anthropic`,
          apiKey: API_KEY,
          model: MODEL,
        }),
      ),
  },
  {
    id: 'ai-sdk-anthropic',
    label: 'Vercel AI SDK `streamText` + `@ai-sdk/anthropic`',
    format: 'anthropic',
    setup(providerUrl) {
      const provider = createAnthropic({ baseURL: `${providerUrl}/anthropic/v1`, apiKey: API_KEY });
      return aiSdkRelay(provider(MODEL));
    },
  },
];
