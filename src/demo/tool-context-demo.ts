import { ChatClient, type ChatModel, type JsonSchema, type ToolResponseMessage } from '../index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { RecordingChatModel } from './recording-chat-model.js';
import { UserContextTools } from './weather-and-status-tools.js';

/** What the ToolContext scenario showed. */
export interface ToolContextDemoResult {
  inputSchema: JsonSchema | undefined;
  seenUserIds: string[];
  answer: string | null;
}

/** The article's script: `my_account` with empty arguments, then an answer from its result. */
export function toolContextScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'my_account', arguments: '' }]),
    (prompt) => {
      const result = prompt.messages.at(-1) as ToolResponseMessage;
      const account = JSON.parse(result.responses[0]?.responseData ?? '{}') as { tier?: string };
      return textResponse(`Your account tier is ${account.tier}.`);
    },
  ]);
}

/**
 * "ToolContext: data the model must never see or choose": the schema sent to the model has no
 * user property at all; the caller supplies `userId` out of band and the tool reads it.
 */
export async function runToolContextDemo(
  model: ChatModel = toolContextScript(),
  log: (line: string) => void = console.log,
): Promise<ToolContextDemoResult> {
  const recorder = new RecordingChatModel(model);
  const tools = new UserContextTools();
  const client = ChatClient.create(recorder, { tools: [tools] });
  const answer = await client
    .prompt()
    .user("What's my account tier?")
    .toolContext({ userId: 'alice' })
    .call()
    .content();
  const inputSchema = recorder.prompts[0]?.options.toolCallbacks?.find(
    (callback) => callback.definition.name === 'my_account',
  )?.definition.inputSchema;
  log('my_account input schema sent to the model:');
  log(JSON.stringify(inputSchema, null, 2));
  log(`userId the tool received from the ToolContext: ${tools.seenUserIds.join(', ') || '(none)'}`);
  log(`answer: ${answer ?? '(no text)'}`);
  log('');
  return { inputSchema, seenUserIds: [...tools.seenUserIds], answer };
}
