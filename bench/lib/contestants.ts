import { aiSdkCall, aiSdkModel, aiSdkTools } from './ai-sdk.js';
import { BenchChatModel } from './bench-chat-model.js';
import { handTools, handWrittenCall } from './hand-written-loop.js';
import {
  langChainAgentCall,
  langChainAgentSetup,
  langChainCoreCall,
  langChainCoreSetup,
} from './langchain.js';
import { openAiAgentsCall, openAiAgentsSetup } from './openai-agents.js';
import { toolloopCall, toolloopSetup } from './toolloop.js';
import { inputSchema, noopTool, QUESTION, type ToolBody, toolName } from './workload.js';

/** One framework running the loop-overhead workload. */
export interface Contestant {
  /** Short stable id (`hand-written`, `toolloop`, `ai-sdk`, …). */
  id: string;
  /** What the table shows. */
  label: string;
  /**
   * Builds the framework objects once, with tools that run `execute` (the no-op by default);
   * returns one conversation, which resolves with the final text.
   */
  setup(execute?: ToolBody): () => Promise<string>;
}

/** The hand-written minimal loop (the baseline). */
export const handWritten: Contestant = {
  id: 'hand-written',
  label: 'hand-written minimal loop',
  setup(execute = noopTool) {
    const model = new BenchChatModel(3);
    const tools = handTools(
      [0, 1, 2].map((i) => ({ name: toolName(i), schema: inputSchema, execute })),
    );
    return () => handWrittenCall(model, tools, [], QUESTION);
  },
};

/** toolloop's ChatClient with its automatic ToolCallingAdvisor. */
export const toolloop: Contestant = {
  id: 'toolloop',
  label: 'toolloop ChatClient',
  setup(execute = noopTool) {
    const setup = toolloopSetup(3, 0, execute);
    return () => toolloopCall(setup);
  },
};

/** Every peer, cheapest first as measured in the issue. */
export const peers: Contestant[] = [
  {
    id: 'langchain-core',
    label: 'LangChain.js core (bindTools + tool.invoke loop)',
    setup(execute = noopTool) {
      const setup = langChainCoreSetup(execute);
      return () => langChainCoreCall(setup, QUESTION);
    },
  },
  {
    id: 'ai-sdk',
    label: 'Vercel AI SDK generateText',
    setup(execute = noopTool) {
      const model = aiSdkModel(3);
      const tools = aiSdkTools(3, execute);
      return () => aiSdkCall(model, tools, QUESTION);
    },
  },
  {
    id: 'openai-agents',
    label: 'OpenAI Agents SDK Runner',
    setup(execute = noopTool) {
      const setup = openAiAgentsSetup(execute);
      return () => openAiAgentsCall(setup, QUESTION);
    },
  },
  {
    id: 'langchain-agent',
    label: 'LangChain.js agent (createAgent)',
    setup(execute = noopTool) {
      const agent = langChainAgentSetup(execute);
      return () => langChainAgentCall(agent, QUESTION);
    },
  },
];
