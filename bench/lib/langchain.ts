import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createAgent } from 'langchain';
import {
  FINAL_TEXT,
  inputSchema,
  noopTool,
  scriptedCalls,
  type ToolBody,
  toolDescription,
  toolName,
} from './workload.js';

/**
 * The LangChain.js side of the workload: a scripted `BaseChatModel` subclass (LangChain's extension
 * point for chat model providers; `bindTools` converts the tools to definitions the way provider
 * packages do) with Zod-validated `tool()`s, driven two ways: the LangChain core loop
 * (`bindTools` + `invoke` + `tool.invoke(toolCall)`) and a LangChain v1 agent (`createAgent`, the
 * LangGraph ReAct graph).
 */

/** The scripted zero-latency chat model. */
export class LangChainBenchModel extends BaseChatModel {
  static override lc_name(): string {
    return 'LangChainBenchModel';
  }

  _llmType(): string {
    return 'bench-scripted';
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<BaseChatModelCallOptions>) {
    return this.withConfig({
      tools: tools.map((entry) => convertToOpenAITool(entry)),
      ...kwargs,
    } as Partial<BaseChatModelCallOptions>);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const wantsTools = messages[messages.length - 1]?.getType() === 'human';
    const message = wantsTools
      ? new AIMessage({
          content: '',
          tool_calls: scriptedCalls(3).map((call) => ({
            id: call.id,
            name: call.name,
            args: JSON.parse(call.arguments) as Record<string, unknown>,
            type: 'tool_call' as const,
          })),
        })
      : new AIMessage({ content: FINAL_TEXT });
    return { generations: [{ text: wantsTools ? '' : FINAL_TEXT, message }] };
  }
}

/** Three Zod-validated tools running `execute` (the no-op by default). */
export function langChainTools(execute: ToolBody = noopTool): StructuredToolInterface[] {
  return [0, 1, 2].map((i) =>
    tool(execute, { name: toolName(i), description: toolDescription(i), schema: inputSchema }),
  );
}

/** The LangChain core loop, set up once: the model with its tools bound, and tools by name. */
export function langChainCoreSetup(execute: ToolBody = noopTool) {
  const tools = langChainTools(execute);
  const byName = new Map(tools.map((entry) => [entry.name, entry]));
  const model = new LangChainBenchModel({}).bindTools(tools);
  return { model, byName };
}

/** One conversation through the LangChain core loop; resolves with the final text. */
export async function langChainCoreCall(
  setup: ReturnType<typeof langChainCoreSetup>,
  question: string,
): Promise<string> {
  const messages: BaseMessage[] = [new HumanMessage(question)];
  for (;;) {
    const reply = await setup.model.invoke(messages);
    messages.push(reply);
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) return reply.text;
    const results = await Promise.all(
      calls.map((call) => setup.byName.get(call.name)!.invoke(call) as Promise<ToolMessage>),
    );
    messages.push(...results);
  }
}

/** A LangChain v1 agent (`createAgent`) with the scripted model and the three tools. */
export function langChainAgentSetup(execute: ToolBody = noopTool) {
  return createAgent({ model: new LangChainBenchModel({}), tools: langChainTools(execute) });
}

/** One conversation through the agent; resolves with the final text. */
export async function langChainAgentCall(
  agent: ReturnType<typeof langChainAgentSetup>,
  question: string,
): Promise<string> {
  const state = await agent.invoke({ messages: [new HumanMessage(question)] });
  const last = state.messages[state.messages.length - 1];
  return last ? String(last.content) : '';
}
