// The Tool Calling Loop: what the auto-registered ToolCallingAdvisor does on every round, in
// .call() and .stream() alike: it sends the tool definitions with every model call, appends the
// tool results to the history, and calls the model again until an answer has no tool calls. The
// chain holds exactly one tool advisor: a second one is an error naming both.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-calling-loop.js
import { pathToFileURL } from 'node:url';
import {
  ChatClient,
  createToolCallingManager,
  IllegalStateError,
  ToolCallingAdvisor,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { WeatherTools } from './weather-tools.js';

/** Stands in for a real model: one city per round, two rounds, then the answer. */
export function scriptedLoopModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ id: 'call-1', name: 'current_weather', arguments: { city: 'Amsterdam' } }]),
    toolCallResponse([{ id: 'call-2', name: 'current_weather', arguments: { city: 'Paris' } }]),
    textResponse('Amsterdam: 11 °C and rain; Paris: 17 °C and sunny.'),
  ]);
}

/** One model call of the loop: the tools it was offered and the roles of the history it was sent. */
export interface LoopRound {
  offered: string[];
  roles: string[];
}

/** What the run showed. */
export interface ToolCallingLoopResult {
  callRounds: LoopRound[];
  streamRounds: LoopRound[];
  callAnswer: string | null;
  streamAnswer: string;
  /** The error of a chain with two tool advisors. */
  twoToolAdvisors: string;
}

function rounds(model: ScriptedChatModel): LoopRound[] {
  return model.prompts.map((prompt) => ({
    offered: (prompt.options.toolCallbacks ?? []).map((tool) => tool.definition.name),
    roles: prompt.messages.map((message) => message.role),
  }));
}

export async function runToolCallingLoop(
  log: (line: string) => void = console.log,
): Promise<ToolCallingLoopResult> {
  const question = 'What is the weather in Amsterdam, then in Paris?';
  const callModel = scriptedLoopModel();
  const callAnswer = await ChatClient.create(callModel, { tools: [new WeatherTools()] })
    .prompt(question)
    .call()
    .content();
  const callRounds = rounds(callModel);
  for (const [i, round] of callRounds.entries()) {
    log(
      `call mode, model call ${i + 1}: offered ${round.offered}; sent ${round.roles.join(' → ')}`,
    );
  }
  log(`answer: ${callAnswer}`);

  const streamModel = scriptedLoopModel();
  let streamAnswer = '';
  for await (const delta of ChatClient.create(streamModel, { tools: [new WeatherTools()] })
    .prompt(question)
    .stream()
    .content()) {
    streamAnswer += delta;
  }
  const streamRounds = rounds(streamModel);
  log(`stream mode: ${streamRounds.length} model calls, answer: ${streamAnswer}`);

  let twoToolAdvisors = '';
  try {
    await ChatClient.create(scriptedLoopModel(), { tools: [new WeatherTools()] })
      .prompt(question)
      .advisors(
        new ToolCallingAdvisor({ toolCallingManager: createToolCallingManager() }),
        new ToolCallingAdvisor({ toolCallingManager: createToolCallingManager(), order: 42 }),
      )
      .call()
      .content();
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error;
    twoToolAdvisors = error.message;
    log(`two tool advisors: ${twoToolAdvisors}`);
  }
  return { callRounds, streamRounds, callAnswer, streamAnswer, twoToolAdvisors };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolCallingLoop();
}
