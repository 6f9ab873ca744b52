import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Advisor,
  type CallAdvisor,
  type CallAdvisorChain,
  type ChatClientRequest,
  type ChatClientResponse,
  DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER,
  HIGHEST_PRECEDENCE,
  isToolAdvisor,
  type MemoryAdvisor,
  type StreamAdvisor,
  type StreamAdvisorChain,
  type ToolAdvisor,
} from '../advisors/index.js';
import { IllegalStateError } from '../errors/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { createToolCallingManager } from '../tool-calling/create-tool-calling-manager.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import type { ToolCallingManager } from '../tool-calling/tool-calling-manager.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { AdvisorParams } from './advisor-params.js';
import { ChatClient } from './chat-client.js';
import type { ChatClientRequestSpec } from './chat-client-request-spec.js';

type Mode = 'call' | 'stream';
const modes: Mode[] = ['call', 'stream'];

async function run(spec: ChatClientRequestSpec, mode: Mode): Promise<string | null> {
  if (mode === 'call') return spec.call().content();
  let text = '';
  for await (const delta of spec.stream().content()) text += delta;
  return text;
}

function weatherTool(executions: string[] = []): ToolCallback {
  return tool({
    name: 'weather',
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: (input) => {
      executions.push(input.city);
      return { city: input.city, temperatureCelsius: 21 };
    },
  });
}

function loopScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'weather', arguments: { city: 'Paris' } }]),
    textResponse('It is 21 degrees in Paris.'),
  ]);
}

/** A pass-through advisor with the given extra properties (markers) and order. */
class PassThroughAdvisor implements CallAdvisor, StreamAdvisor {
  constructor(
    readonly name: string,
    readonly order: number,
  ) {}
  adviseCall(request: ChatClientRequest, chain: CallAdvisorChain): Promise<ChatClientResponse> {
    return chain.nextCall(request);
  }
  adviseStream(request: ChatClientRequest, chain: StreamAdvisorChain) {
    return chain.nextStream(request);
  }
}

class CustomToolAdvisor extends PassThroughAdvisor implements ToolAdvisor {
  readonly isToolAdvisor = true as const;
}

class FakeMemoryAdvisor extends PassThroughAdvisor implements MemoryAdvisor {
  readonly isMemoryAdvisor = true as const;
}

/** Sits just before the model and records which advisors made up the chain. */
class ChainInspector extends PassThroughAdvisor {
  readonly chains: (readonly Advisor[])[] = [];
  constructor() {
    super('Chain Inspector', 2_000_000_000);
  }
  override adviseCall(request: ChatClientRequest, chain: CallAdvisorChain) {
    this.chains.push(chain.callAdvisors);
    return super.adviseCall(request, chain);
  }
  override adviseStream(request: ChatClientRequest, chain: StreamAdvisorChain) {
    this.chains.push(chain.streamAdvisors);
    return super.adviseStream(request, chain);
  }
  toolAdvisors(): Advisor[] {
    return (this.chains[0] ?? []).filter(isToolAdvisor);
  }
}

/** Outside the loop: attaches a tool to a request that has none, at run time. */
class ToolInjectingAdvisor extends PassThroughAdvisor {
  constructor(private readonly injected: ToolCallback) {
    super('Tool Injecting Advisor', HIGHEST_PRECEDENCE + 100);
  }
  private inject(request: ChatClientRequest): ChatClientRequest {
    return {
      ...request,
      prompt: {
        ...request.prompt,
        options: { ...request.prompt.options, toolCallbacks: [this.injected] },
      },
    };
  }
  override adviseCall(request: ChatClientRequest, chain: CallAdvisorChain) {
    return super.adviseCall(this.inject(request), chain);
  }
  override adviseStream(request: ChatClientRequest, chain: StreamAdvisorChain) {
    return super.adviseStream(this.inject(request), chain);
  }
}

describe.each(modes)('ToolCallingAdvisor auto-registration (%s)', (mode) => {
  it('runs the tool loop for .tools(weatherTool): 2 model calls and a final answer', async () => {
    const model = loopScript();
    const executions: string[] = [];
    const client = ChatClient.create(model);
    const content = await run(
      client.prompt('Weather in Paris?').tools(weatherTool(executions)),
      mode,
    );
    expect(content).toBe('It is 21 degrees in Paris.');
    expect(model.callCount).toBe(2);
    expect(executions).toEqual(['Paris']);
    const toolMessage = model.prompts[1]?.messages.at(-1);
    expect(toolMessage).toEqual({
      role: 'tool',
      responses: [
        { id: 'call-1', name: 'weather', responseData: '{"city":"Paris","temperatureCelsius":21}' },
      ],
    });
  });

  it('skips registration when the auto-register param is false: 1 model call, tool calls returned', async () => {
    const model = loopScript();
    const executions: string[] = [];
    const inspector = new ChainInspector();
    const client = ChatClient.create(model, { advisors: [inspector] });
    const spec = client
      .prompt('Weather in Paris?')
      .tools(weatherTool(executions))
      .advisors(AdvisorParams.toolCallingAdvisorAutoRegister(false));
    if (mode === 'call') {
      const response = await spec.call().chatResponse();
      expect(response?.results[0]?.output.toolCalls[0]?.name).toBe('weather');
    } else {
      const names: string[] = [];
      for await (const chunk of spec.stream().chatResponse()) {
        for (const call of chunk.results[0]?.output.toolCalls ?? []) names.push(call.name);
      }
      expect(names).toEqual(['weather']);
    }
    expect(model.callCount).toBe(1);
    expect(executions).toEqual([]);
    expect(inspector.chains).toHaveLength(1);
    expect(inspector.toolAdvisors()).toEqual([]);
  });

  it("honours the reference's param key spelled out: 'spring.ai.chat.client.tool.calling.advisor.auto-register'", async () => {
    expect(AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER).toBe(
      'spring.ai.chat.client.tool.calling.advisor.auto-register',
    );
    const model = loopScript();
    const executions: string[] = [];
    const client = ChatClient.create(model);
    await run(
      client
        .prompt('Weather in Paris?')
        .tools(weatherTool(executions))
        .advisors((a) =>
          a.param('spring.ai.chat.client.tool.calling.advisor.auto-register', false),
        ),
      mode,
    );
    expect(model.callCount).toBe(1);
    expect(executions).toEqual([]);
  });

  it('honours the opt-out set as a client default', async () => {
    const model = loopScript();
    const client = ChatClient.create(model, {
      advisors: [AdvisorParams.toolCallingAdvisorAutoRegister(false)],
    });
    await run(client.prompt('Weather?').tools(weatherTool()), mode);
    expect(model.callCount).toBe(1);
  });

  it('registers the advisor even without tools: 1 model call', async () => {
    const model = new ScriptedChatModel([textResponse('Hello')]);
    const inspector = new ChainInspector();
    const client = ChatClient.create(model, { advisors: [inspector] });
    expect(await run(client.prompt('Hi'), mode)).toBe('Hello');
    expect(model.callCount).toBe(1);
    const [registered] = inspector.toolAdvisors();
    expect(registered).toBeInstanceOf(ToolCallingAdvisor);
    expect(registered?.order).toBe(ToolCallingAdvisor.DEFAULT_ORDER);
  });

  it('loops on tools injected at run time by another advisor, with no static tools', async () => {
    const model = loopScript();
    const executions: string[] = [];
    const client = ChatClient.create(model, {
      advisors: [new ToolInjectingAdvisor(weatherTool(executions))],
    });
    expect(await run(client.prompt('Weather?'), mode)).toBe('It is 21 degrees in Paris.');
    expect(model.callCount).toBe(2);
    expect(executions).toEqual(['Paris']);
  });

  it('loops on tools given only in the model default options', async () => {
    const executions: string[] = [];
    const model = new ScriptedChatModel(
      [toolCallResponse([{ name: 'weather', arguments: { city: 'Oslo' } }]), textResponse('Cold.')],
      { defaultOptions: { toolCallbacks: [weatherTool(executions)] } },
    );
    expect(await run(ChatClient.create(model).prompt('Weather?'), mode)).toBe('Cold.');
    expect(model.callCount).toBe(2);
    expect(executions).toEqual(['Oslo']);
  });

  it('loops on tools given only in .options()', async () => {
    const executions: string[] = [];
    const model = loopScript();
    const spec = ChatClient.create(model)
      .prompt('Weather?')
      .options({ toolCallbacks: [weatherTool(executions)] });
    expect(await run(spec, mode)).toBe('It is 21 degrees in Paris.');
    expect(model.callCount).toBe(2);
  });

  it('adds no second advisor next to an explicit ToolCallingAdvisor: exactly 2 model calls', async () => {
    const model = loopScript();
    const inspector = new ChainInspector();
    const explicit = new ToolCallingAdvisor({ order: HIGHEST_PRECEDENCE + 500 });
    const client = ChatClient.create(model, { advisors: [inspector] });
    await run(client.prompt('Weather?').tools(weatherTool()).advisors(explicit), mode);
    expect(model.callCount).toBe(2);
    expect(inspector.toolAdvisors()).toEqual([explicit]);
  });

  it('uses the configured template, with its custom manager executing the tools', async () => {
    const inner = createToolCallingManager();
    let executions = 0;
    const manager: ToolCallingManager = {
      resolveToolDefinitions: (options) => inner.resolveToolDefinitions(options),
      executeToolCalls: (prompt, response, options) => {
        executions++;
        return inner.executeToolCalls(prompt, response, options);
      },
    };
    const model = loopScript();
    const client = ChatClient.create(model, {
      toolCallingAdvisor: new ToolCallingAdvisor({ toolCallingManager: manager }),
    });
    expect(await run(client.prompt('Weather?').tools(weatherTool()), mode)).toBe(
      'It is 21 degrees in Paris.',
    );
    expect(executions).toBe(1);
  });

  it('keeps a subclass template and its order when copying it', async () => {
    class AuditingToolCallingAdvisor extends ToolCallingAdvisor {}
    const model = loopScript();
    const inspector = new ChainInspector();
    const client = ChatClient.create(model, {
      advisors: [inspector],
      toolCallingAdvisor: new AuditingToolCallingAdvisor({ order: HIGHEST_PRECEDENCE + 350 }),
    });
    await run(client.prompt('Weather?').tools(weatherTool()), mode);
    const [registered] = inspector.toolAdvisors();
    expect(registered).toBeInstanceOf(AuditingToolCallingAdvisor);
    expect(registered?.order).toBe(HIGHEST_PRECEDENCE + 350);
  });

  it('fails with "At most one ToolAdvisor" naming both when two are given', async () => {
    const model = loopScript();
    const spec = ChatClient.create(model)
      .prompt('Weather?')
      .advisors(new ToolCallingAdvisor(), new CustomToolAdvisor('Custom Tool Advisor', 42));
    const failure = run(spec, mode);
    await expect(failure).rejects.toBeInstanceOf(IllegalStateError);
    await expect(run(spec, mode)).rejects.toThrow(
      `At most one ToolAdvisor is allowed in the advisor chain, but found 2: [Tool Calling Advisor (order=${ToolCallingAdvisor.DEFAULT_ORDER}), Custom Tool Advisor (order=42)]`,
    );
    expect(model.callCount).toBe(0);
  });

  it('does not auto-register next to a custom ToolAdvisor: 1 model call despite tool calls', async () => {
    const model = loopScript();
    const executions: string[] = [];
    const client = ChatClient.create(model, {
      advisors: [new CustomToolAdvisor('Custom Tool Advisor', HIGHEST_PRECEDENCE + 300)],
    });
    await run(client.prompt('Weather?').tools(weatherTool(executions)), mode);
    expect(model.callCount).toBe(1);
    expect(executions).toEqual([]);
  });

  it('turns internal history off only when a memory advisor sits inside the loop', async () => {
    const cases = [
      { memoryOrder: DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER, history: true },
      { memoryOrder: ToolCallingAdvisor.DEFAULT_ORDER, history: true },
      { memoryOrder: HIGHEST_PRECEDENCE + 400, history: false },
      { memoryOrder: 1000, history: false },
    ];
    for (const { memoryOrder, history } of cases) {
      const inspector = new ChainInspector();
      const client = ChatClient.create(new ScriptedChatModel([textResponse('ok')]), {
        advisors: [inspector, new FakeMemoryAdvisor('Memory', memoryOrder)],
        // A template with history off gets it back when no memory advisor is inside the loop.
        toolCallingAdvisor: new ToolCallingAdvisor({ conversationHistoryEnabled: false }),
      });
      await run(client.prompt('Hi'), mode);
      const [registered] = inspector.toolAdvisors() as ToolCallingAdvisor[];
      expect(registered?.conversationHistoryEnabled, `memory at ${memoryOrder}`).toBe(history);
    }
  });
});
