// Memory and the Tool Loop: where the memory advisor sits decides what it stores. At its default
// order it is outside the loop and stores the user message and the final answer; with an order
// above the tool advisor's it is inside the loop and stores every tool call and tool result too.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/memory.js
import { pathToFileURL } from 'node:url';
import {
  ChatClient,
  type ChatModel,
  CONVERSATION_ID,
  HIGHEST_PRECEDENCE,
  InMemoryChatMemoryRepository,
  type Message,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { currentWeather } from './defining-tools.js';

/** Stands in for a real model over two turns: a weather lookup, then a question about it. */
export function scriptedMemoryModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'currentWeather', arguments: { location: 'Copenhagen' } }]),
    textResponse('It is 18 °C in Copenhagen.'),
    textResponse('You asked about the weather in Copenhagen.'),
  ]);
}

/** Where the memory advisor sits. */
export type MemoryPlacement = 'outside' | 'inside';

/** Runs two turns of one conversation and returns what the repository holds afterwards. */
export async function runMemory(
  placement: MemoryPlacement = 'outside',
  chatModel: ChatModel = scriptedMemoryModel(),
  log: (line: string) => void = console.log,
): Promise<Message[]> {
  const repository = new InMemoryChatMemoryRepository();
  const chatMemory = new MessageWindowChatMemory({ repository, maxMessages: 50 });
  const memoryAdvisor =
    placement === 'outside'
      ? new MessageChatMemoryAdvisor({ chatMemory }) // HIGHEST_PRECEDENCE + 200: outside the loop
      : new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 }); // inside
  const client = ChatClient.create(chatModel, {
    tools: [currentWeather],
    advisors: [memoryAdvisor],
  });

  for (const question of ["What's the weather in Copenhagen?", 'What did I just ask you?']) {
    const answer = await client
      .prompt(question)
      .advisors((a) => a.param(CONVERSATION_ID, 'user-1'))
      .call()
      .content();
    log(`${placement}: ${question} → ${answer}`);
  }

  const stored = await repository.findByConversationId('user-1');
  for (const message of stored) {
    const calls = message.role === 'assistant' ? message.toolCalls.map((c) => c.name) : [];
    log(`  stored ${message.role}${calls.length > 0 ? ` calls ${calls.join(', ')}` : ''}`);
  }
  return stored;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMemory('outside');
  await runMemory('inside');
}
