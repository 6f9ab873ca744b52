// Custom advisors: an advisor sees every request and response that passes its place in the chain,
// and its order decides the place. Ordered before ToolCallingAdvisor it sees a turn once (the
// question and the final answer); ordered after it, it sees every model call of the tool loop.
// One advisor class, two instances, in call and in stream mode.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/custom-advisor.js
import { pathToFileURL } from 'node:url';
import {
  type Advisor,
  type CallAdvisor,
  type CallAdvisorChain,
  ChatClient,
  type ChatClientOptions,
  type ChatClientRequest,
  type ChatClientResponse,
  type ChatModel,
  DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER,
  LOWEST_PRECEDENCE,
  type StreamAdvisor,
  type StreamAdvisorChain,
  TOOL_LOOP_TURN_ID,
  ToolCallingAdvisor,
} from '../src/index.js';
import { scriptedWeatherModel, WeatherTools } from './weather-tools.js';

/** One request an advisor saw, and how its response ended. */
export interface AdvisedExchange {
  advisor: string;
  mode: 'call' | 'stream';
  /** Messages the request carried. */
  messages: number;
  /** Tool calls in the response (the loop runs them after an inner advisor has seen them). */
  toolCalls: number;
  finishReason: string | null;
  /** The turn id ToolCallingAdvisor puts in every round's context; absent outside the loop. */
  turnId: string | undefined;
}

/** Where an advisor sits: before the tool loop, or inside it. */
export function placement(advisor: Advisor): 'outside the tool loop' | 'inside the tool loop' {
  return advisor.order < ToolCallingAdvisor.DEFAULT_ORDER
    ? 'outside the tool loop'
    : 'inside the tool loop';
}

/** Records every exchange that passes it, in call and in stream mode. */
export class ExchangeLogAdvisor implements CallAdvisor, StreamAdvisor {
  readonly exchanges: AdvisedExchange[] = [];

  constructor(
    readonly name: string,
    readonly order: number,
  ) {}

  async adviseCall(
    request: ChatClientRequest,
    chain: CallAdvisorChain,
  ): Promise<ChatClientResponse> {
    const response = await chain.nextCall(request);
    const generation = response.chatResponse?.results[0];
    this.#record('call', request, generation?.output.toolCalls.length ?? 0, generation);
    return response;
  }

  async *adviseStream(
    request: ChatClientRequest,
    chain: StreamAdvisorChain,
  ): AsyncIterable<ChatClientResponse> {
    let toolCalls = 0;
    let last: ChatClientResponse['chatResponse'] = null;
    for await (const response of chain.nextStream(request)) {
      toolCalls += response.chatResponse?.results[0]?.output.toolCalls.length ?? 0;
      if (response.chatResponse?.results[0]?.metadata.finishReason) last = response.chatResponse;
      yield response;
    }
    this.#record('stream', request, toolCalls, last?.results[0]);
  }

  #record(
    mode: 'call' | 'stream',
    request: ChatClientRequest,
    toolCalls: number,
    generation: { metadata: { finishReason: string | null } } | undefined,
  ): void {
    const turnId = request.context[TOOL_LOOP_TURN_ID];
    this.exchanges.push({
      advisor: this.name,
      mode,
      messages: request.prompt.messages.length,
      toolCalls,
      finishReason: generation?.metadata.finishReason ?? null,
      turnId: typeof turnId === 'string' ? turnId : undefined,
    });
  }
}

/** What both advisors saw of one weather question, asked once per mode. */
export interface CustomAdvisorResult {
  outer: AdvisedExchange[];
  inner: AdvisedExchange[];
  placements: string[];
}

/** Asks the weather question with `.call()` and with `.stream()` through both advisors. */
export async function runCustomAdvisor(
  chatModel: () => ChatModel = scriptedWeatherModel,
  log: (line: string) => void = console.log,
): Promise<CustomAdvisorResult> {
  // After the memory advisors' default place, before the tool loop: once per turn.
  const outer = new ExchangeLogAdvisor('turns', DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER + 50);
  // Next to the model call: once per model call of the loop.
  const inner = new ExchangeLogAdvisor('model calls', LOWEST_PRECEDENCE - 1);
  const options: ChatClientOptions = { tools: [new WeatherTools()], advisors: [outer, inner] };
  const question = 'What is the weather in Amsterdam and Paris?';

  await ChatClient.create(chatModel(), options).prompt(question).call().content();
  for await (const _ of ChatClient.create(chatModel(), options)
    .prompt(question)
    .stream()
    .content());

  const placements = [outer, inner].map((advisor) => `${advisor.name}: ${placement(advisor)}`);
  for (const line of placements) log(line);
  for (const exchange of [...outer.exchanges, ...inner.exchanges]) {
    log(
      `${exchange.advisor} (${exchange.mode}): ${exchange.messages} messages in, ` +
        `${exchange.toolCalls} tool calls out, finish ${exchange.finishReason}`,
    );
  }
  return { outer: outer.exchanges, inner: inner.exchanges, placements };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runCustomAdvisor();
}
