// Extending the Loop: a custom ToolAdvisor. A ToolCallingAdvisor subclass overrides the hooks
// (doInitializeLoop, doBeforeCall, doAfterCall, doFinalizeLoop) to enforce a budget of model calls
// per turn, and is plugged into a client built from configuration (Spring AI's
// ToolCallingAdvisor.Builder<?> bean) so nothing else needs wiring.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/extending-the-loop.js
import { pathToFileURL } from 'node:url';
import { chatClientFromConfig, loadConfig } from '../src/config/index.js';
import {
  type ChatClientRequest,
  type ChatClientResponse,
  type ChatModel,
  IllegalStateError,
  ToolCallingAdvisor,
  type ToolCallingAdvisorOptions,
  type ToolLoopContext,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { WeatherTools } from './weather-tools.js';

type MaybePromise<T> = T | Promise<T>;

/** A tool loop that allows at most `budget` model calls per turn, and logs every round. */
export class BudgetToolCallingAdvisor extends ToolCallingAdvisor {
  readonly budget: number;
  readonly #log: (line: string) => void;

  constructor(
    options: ToolCallingAdvisorOptions & { budget: number; log?: (line: string) => void },
  ) {
    super(options);
    this.budget = options.budget;
    this.#log = options.log ?? console.log;
  }

  // Each copy the client makes of the advisor keeps the budget and the log.
  protected override newCopy(options: ToolCallingAdvisorOptions): this {
    return new BudgetToolCallingAdvisor({
      ...options,
      budget: this.budget,
      log: this.#log,
    }) as this;
  }

  protected override doInitializeLoop(
    request: ChatClientRequest,
    loop: ToolLoopContext,
  ): MaybePromise<ChatClientRequest> {
    this.#log(`turn starts (budget ${this.budget} model calls)`);
    return super.doInitializeLoop(request, loop);
  }

  protected override doBeforeCall(
    request: ChatClientRequest,
    loop: ToolLoopContext,
  ): MaybePromise<ChatClientRequest> {
    if (loop.iteration > this.budget) {
      throw new IllegalStateError(`model call budget of ${this.budget} spent`);
    }
    this.#log(`model call ${loop.iteration}`);
    return super.doBeforeCall(request, loop);
  }

  protected override doAfterCall(
    response: ChatClientResponse,
    loop: ToolLoopContext,
  ): MaybePromise<ChatClientResponse> {
    const calls = response.chatResponse?.results[0]?.output.toolCalls ?? [];
    this.#log(`  asked for: ${calls.map((call) => call.name).join(', ') || 'nothing (answer)'}`);
    return super.doAfterCall(response, loop);
  }

  protected override doFinalizeLoop(
    response: ChatClientResponse,
    loop: ToolLoopContext,
  ): MaybePromise<ChatClientResponse> {
    this.#log(`turn ends after ${loop.iteration} model calls`);
    return super.doFinalizeLoop(response, loop);
  }
}

/** Stands in for a real model that looks the weather up twice before it answers. */
export function scriptedBudgetModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'current_weather', arguments: { city: 'Paris' } }]),
    toolCallResponse([{ name: 'current_weather', arguments: { city: 'Amsterdam' } }]),
    textResponse('Paris is sunny, Amsterdam rainy.'),
  ]);
}

/** What the run showed. */
export interface ExtendingTheLoopResult {
  answer: string | null;
  /** The error of the same turn with a budget of two model calls. */
  overBudget: string;
  lines: string[];
}

export async function runExtendingTheLoop(
  chatModel: ChatModel = scriptedBudgetModel(),
  overBudgetModel: ChatModel = scriptedBudgetModel(),
  log: (line: string) => void = console.log,
): Promise<ExtendingTheLoopResult> {
  const lines: string[] = [];
  const record = (line: string) => {
    lines.push(line);
    log(line);
  };
  const config = await loadConfig({ env: false });
  const build = (model: ChatModel, budget: number) =>
    chatClientFromConfig(config, {
      chatModel: model,
      tools: [new WeatherTools()],
      // Receives the manager built from the configured limits, as the Builder<?> bean does.
      toolCallingAdvisorFactory: (toolCallingManager) =>
        new BudgetToolCallingAdvisor({ toolCallingManager, budget, log: record }),
    });
  const generous = await build(chatModel, 3);
  const answer = await generous.client.prompt('Weather in Paris and Amsterdam?').call().content();
  record(`answer: ${answer}`);
  const strict = await build(overBudgetModel, 2);
  let overBudget = '';
  try {
    await strict.client.prompt('Weather in Paris and Amsterdam?').call().content();
  } catch (error) {
    overBudget = (error as Error).message;
    record(`budget 2: ${overBudget}`);
  }
  await Promise.all([generous.close(), strict.close()]);
  return { answer, overBudget, lines };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runExtendingTheLoop();
}
