import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  ChatClient,
  type ChatModel,
  CONVERSATION_ID,
  HIGHEST_PRECEDENCE,
  type Message,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../index.js';
import { SqliteChatMemoryRepository } from '../memory/sqlite/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { RecordingChatModel } from './recording-chat-model.js';
import { WeatherTools } from './weather-and-status-tools.js';

/** What the memory scenario showed. */
export interface MemoryDemoResult {
  /** What the model was sent in turn 2, after the restart. */
  secondTurnPrompt: Message[];
  /** The rows in the SQLite file at the end. */
  storedMessages: number;
  answer: string | null;
}

/** The scripted model: turn 1 calls the weather tool and answers; turn 2 answers from memory. */
export function memoryDemoScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-boston', name: 'current_weather', arguments: { city: 'Boston' } },
    ]),
    textResponse('It is 14.5 °C and overcast in Boston.'),
    textResponse(
      'You asked about Boston: 14.5 °C and overcast, which I looked up with current_weather.',
    ),
  ]);
}

function describeMessage(message: Message): string {
  switch (message.role) {
    case 'tool':
      return `tool      ${message.responses.map((r) => `${r.name} → ${r.responseData}`).join('; ')}`;
    case 'assistant':
      return message.toolCalls.length > 0
        ? `assistant calls ${message.toolCalls.map((c) => `${c.name}(${c.arguments})`).join(', ')}`
        : `assistant ${message.text ?? ''}`;
    default:
      return `${message.role.padEnd(9)} ${message.text}`;
  }
}

/**
 * "Memory and the tool loop", remembered across a restart: SQLite in a file is the embedded
 * default. Turn 1 runs with one client and database connection, memory inside the tool loop so
 * the tool call and its result are stored too; the database is closed (the "restart"); turn 2
 * opens a new connection and a new client, and its prompt holds all of turn 1.
 */
export async function runMemoryDemo(
  model: ChatModel = memoryDemoScript(),
  log: (line: string) => void = console.log,
): Promise<MemoryDemoResult> {
  const directory = mkdtempSync(join(tmpdir(), 'toolloop-memory-demo-'));
  const file = join(directory, 'chat-memory.db');
  const recorder = new RecordingChatModel(model);
  const conversation = (a: { param(key: string, value: unknown): unknown }) =>
    a.param(CONVERSATION_ID, 'demo-user-1');

  function openClient(database: Database.Database): ChatClient {
    const chatMemory = new MessageWindowChatMemory({
      repository: new SqliteChatMemoryRepository({ database }),
      maxMessages: 50,
    });
    return ChatClient.create(recorder, {
      tools: [new WeatherTools()],
      // An order above the tool advisor's (+300) puts memory inside the loop.
      advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
    });
  }

  try {
    let database = new Database(file);
    const first = await openClient(database)
      .prompt("What's the weather in Boston?")
      .advisors(conversation)
      .call()
      .content();
    log(`turn 1 answer: ${first}`);
    database.close();
    log('-- database closed: process "restarted" --');

    database = new Database(file);
    const answer = await openClient(database)
      .prompt('What did I ask you before, and how did you find out?')
      .advisors(conversation)
      .call()
      .content();
    const secondTurnPrompt = recorder.prompts[recorder.prompts.length - 1]?.messages ?? [];
    log('turn 2 prompt, as the model received it:');
    for (const message of secondTurnPrompt) log(`  ${describeMessage(message)}`);
    log(`turn 2 answer: ${answer}`);
    const storedMessages = (
      await new SqliteChatMemoryRepository({ database }).findByConversationId('demo-user-1')
    ).length;
    log(`messages stored in ${file}: ${storedMessages}`);
    log('');
    database.close();
    return { secondTurnPrompt, storedMessages, answer };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
