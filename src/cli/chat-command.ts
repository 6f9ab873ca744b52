import { createInterface } from 'node:readline';
import {
  type ChatClientFromConfigOptions,
  type ConfiguredChatClient,
  chatClientFromConfig,
  loadConfig,
  type ToolloopConfigInput,
} from '../config/index.js';
import { CONVERSATION_ID } from '../memory/index.js';
import type { Message } from '../messages/index.js';
import type { ChatModel } from '../model/index.js';
import type { TurnEventListener } from '../observability/index.js';
import { collectToolSources, type ToolSource } from '../tools/index.js';
import { chatBanner } from './chat-banner.js';
import type { CliOutput } from './cli-output.js';
import { defaultChatMemory } from './default-chat-memory.js';
import { EXIT_CODES } from './exit-codes.js';
import { loadToolsModule } from './load-tools-module.js';
import { parseCommandArgs, stringList } from './parse-command-args.js';
import { scriptedModelFromFile } from './scripted-model-from-file.js';
import { UsageError } from './usage-error.js';

/** `toolloop chat --help`. */
export const CHAT_HELP = `Usage: toolloop chat [options]

A terminal chat with a model and your tools. Answers are streamed; tool calls are shown as
they run. Conversations are kept in SQLite by default (with better-sqlite3 installed), so a
chat can be resumed.

Options:
  --config <file>         A .properties, .yaml or .json file (Spring AI keys and toolloop.*);
                          repeatable, later files win. MCP servers configured there are offered.
  --tools <module>        A JavaScript module exporting tools (tool() callbacks, objects with
                          @tool methods, or a default array of them); repeatable.
  --model <id>            A model id: openai:<model> (Chat Completions),
                          openai-responses:<model> (the Responses API), anthropic:<model>,
                          google:<model> (Gemini), or "scripted". Default: toolloop.model
                          from the config, else OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL
                          is set, else Anthropic when ANTHROPIC_API_KEY is set, else Gemini
                          when GEMINI_API_KEY or GOOGLE_API_KEY is set.
  --script <file>         With --model scripted: a JSON array of responses to play, e.g.
                          [{"toolCalls":[{"name":"getWeather","arguments":{"city":"Paris"}}]},
                           {"text":"It is sunny in Paris."}]
  --memory <where>        A SQLite file, "in-memory", or "none". Default: the store of the
                          config, else $XDG_DATA_HOME/toolloop/chat.sqlite
                          (~/.local/share/toolloop/chat.sqlite) when better-sqlite3 is
                          installed, else "in-memory".
  --conversation <id>     The conversation to continue or start. Default "default".
  --system <text>         The system message.
  --record <file>         Append every turn's events to this file (JSON Lines) when the turn
                          ends; "toolloop trace <file>" draws them. Same as the config key
                          toolloop.observability.recording-file.
  --include-content       Record tool arguments and results and the answers too (the config key
                          spring.ai.tools.observations.include-content=true). Off by default:
                          a recording is a file that may be shared.
  -h, --help              Show this help.

In the chat:
  /tools     list the tools the model is offered
  /history   show the stored conversation
  /clear     forget the conversation
  /exit      leave (Ctrl-D works too)
  Ctrl-C     stops a running answer, or clears the line; twice on an empty line, leaves

On start the chat says where the conversation is kept and which model it talks to, at which
URL (never with the key).

Exit codes: 0 left normally, 1 runtime error, 2 usage error or invalid configuration.
`;

function modelFromEnvironment(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return 'openai';
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL) return 'anthropic';
  if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY || env.GOOGLE_GEMINI_BASE_URL) return 'google';
  return undefined;
}

async function memoryOverrides(
  memory: string | undefined,
  configured: boolean,
): Promise<{ memory: ToolloopConfigInput['memory']; sqliteMissing: boolean }> {
  if (memory === 'none') return { memory: { store: 'none' }, sqliteMissing: false };
  if (memory === 'in-memory') return { memory: { store: 'in-memory' }, sqliteMissing: false };
  if (memory !== undefined) {
    return { memory: { store: 'sqlite', sqlite: { path: memory } }, sqliteMissing: false };
  }
  return configured ? { memory: undefined, sqliteMissing: false } : await defaultChatMemory();
}

/** Runs `toolloop chat`. */
export async function chatCommand(args: readonly string[], io: CliOutput): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      config: { type: 'string', multiple: true },
      tools: { type: 'string', multiple: true },
      model: { type: 'string' },
      script: { type: 'string' },
      memory: { type: 'string' },
      conversation: { type: 'string' },
      system: { type: 'string' },
      record: { type: 'string' },
      'include-content': { type: 'boolean' },
    },
    CHAT_HELP,
  );
  if (parsed.help) {
    io.out.write(CHAT_HELP);
    return EXIT_CODES.ok;
  }
  if (parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[0]}`, CHAT_HELP);
  }
  const values = parsed.values as Record<string, string | undefined>;
  const includeContent = parsed.values['include-content'] === true;
  const modelFlag = values.model;
  if (values.script !== undefined && modelFlag !== 'scripted') {
    throw new UsageError('--script goes with --model scripted', CHAT_HELP);
  }
  if (modelFlag === 'scripted' && values.script === undefined) {
    throw new UsageError('--model scripted needs --script <file>', CHAT_HELP);
  }

  const files = stringList(parsed.values.config);
  const fileConfig = await loadConfig({ files });
  const { memory, sqliteMissing } = await memoryOverrides(
    values.memory,
    fileConfig.memory.store !== 'none',
  );
  const overrides: ToolloopConfigInput = {
    ...(modelFlag !== undefined && modelFlag !== 'scripted' ? { model: modelFlag } : {}),
    ...(values.system !== undefined ? { chatClient: { system: values.system } } : {}),
    ...(memory === undefined ? {} : { memory }),
    ...(values.record === undefined ? {} : { observability: { recordingFile: values.record } }),
    ...(includeContent ? { tools: { observations: { includeContent: true } } } : {}),
  };
  let config = await loadConfig({ files, overrides });
  let chatModel: ChatModel | undefined;
  if (modelFlag === 'scripted') {
    chatModel = await scriptedModelFromFile(values.script!);
  } else if (config.model === undefined && config.chatProvider === undefined) {
    const fromEnvironment = modelFromEnvironment(process.env);
    if (fromEnvironment === undefined) {
      throw new UsageError(
        'no model: pass --model <provider:model>, set toolloop.model in a config file, set OPENAI_API_KEY or OPENAI_BASE_URL (or ANTHROPIC_API_KEY, or GEMINI_API_KEY), or use --model scripted --script <file>',
        CHAT_HELP,
      );
    }
    config = await loadConfig({ files, overrides: { ...overrides, model: fromEnvironment } });
  }

  const tools: ToolSource[] = [];
  for (const module of stringList(parsed.values.tools))
    tools.push(...(await loadToolsModule(module)));

  const printer = new ChatPrinter(io.out);
  const options: ChatClientFromConfigOptions = {
    tools,
    listeners: [printer.listener],
    ...(chatModel === undefined ? {} : { chatModel }),
  };
  const built = await chatClientFromConfig(config, options);
  try {
    const conversationId = values.conversation ?? 'default';
    const notes = chatBanner({
      conversationId,
      config,
      chatModel: built.chatModel,
      scriptFile: values.script,
      defaultMemory: values.memory === undefined && fileConfig.memory.store === 'none',
      sqliteMissing,
    });
    const recording = config.observability.recordingFile;
    if (recording !== undefined) {
      notes.push(
        `recording turns to ${recording}${config.tools.observations.includeContent ? ' (with tool arguments and results)' : ''}; view them with: toolloop trace ${recording}`,
      );
    }
    await runChatLoop(built, tools, conversationId, printer, io, notes);
  } finally {
    await built.close();
  }
  return EXIT_CODES.ok;
}

/**
 * Writes the chat: streamed answer text after an `assistant> ` prefix (repeated after tool
 * lines), and whole lines that start on a new line only when needed.
 */
class ChatPrinter {
  #atLineStart = true;
  #answering = false;
  #needPrefix = false;
  readonly #out: NodeJS.WritableStream;

  constructor(out: NodeJS.WritableStream) {
    this.#out = out;
  }

  beginAnswer(): void {
    this.#answering = true;
    this.#needPrefix = true;
  }

  endAnswer(): void {
    this.#answering = false;
    if (!this.#atLineStart) this.#out.write('\n');
    this.#atLineStart = true;
  }

  text(delta: string): void {
    if (delta === '') return;
    if (this.#needPrefix) {
      this.#out.write(`${this.#atLineStart ? '' : '\n'}assistant> `);
      this.#needPrefix = false;
    }
    this.#out.write(delta);
    this.#atLineStart = delta.endsWith('\n');
  }

  line(text: string): void {
    if (!this.#atLineStart) this.#out.write('\n');
    this.#out.write(`${text}\n`);
    this.#atLineStart = true;
    if (this.#answering) this.#needPrefix = true;
  }

  /** Shows each tool call as the model makes it, and its result when it comes back. */
  readonly listener: TurnEventListener = (event) => {
    if (event.type === 'tool-call') {
      const call = event.toolCall;
      this.line(`  [tool] ${call.name} ${call.arguments}`.trimEnd());
    } else if (event.type === 'tool-result') {
      const took = Math.round(event.durationMs);
      this.line(
        event.isError
          ? `  [tool] ${event.toolName} failed (${event.outcome}) after ${took} ms`
          : `  [tool] ${event.toolName} returned ${preview(event.result)} in ${took} ms`,
      );
    }
  };
}

function preview(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function describeMessage(message: Message): string {
  switch (message.role) {
    case 'system':
      return `system: ${message.text}`;
    case 'user':
      return `you: ${message.text}`;
    case 'assistant': {
      const calls = message.toolCalls.map((call) => `${call.name}(${call.arguments})`).join(', ');
      return `assistant: ${[message.text ?? '', calls === '' ? '' : `[calls ${calls}]`].filter(Boolean).join(' ')}`;
    }
    case 'tool':
      return message.responses
        .map((response) => `tool ${response.name}: ${preview(response.responseData)}`)
        .join('\n');
  }
}

async function runChatLoop(
  built: ConfiguredChatClient,
  tools: readonly ToolSource[],
  conversationId: string,
  printer: ChatPrinter,
  io: CliOutput,
  notes: readonly string[],
): Promise<void> {
  const input = process.stdin;
  const rl = createInterface({
    input,
    output: io.out,
    terminal: Boolean(input.isTTY),
    prompt: 'you> ',
  });
  let running: AbortController | undefined;
  // As in a shell: Ctrl-C stops a running answer, or clears the line being typed; on an empty
  // line it says how to leave, and leaves when pressed again right away (as Node's REPL does).
  let leaveOnNextInterrupt = false;
  rl.on('SIGINT', () => {
    if (running !== undefined) {
      running.abort();
    } else if (rl.line !== '') {
      rl.write(null, { ctrl: true, name: 'e' });
      rl.write(null, { ctrl: true, name: 'u' });
      leaveOnNextInterrupt = false;
    } else if (leaveOnNextInterrupt) {
      io.out.write('\n');
      rl.close();
    } else {
      leaveOnNextInterrupt = true;
      io.out.write('\n');
      printer.line('(To leave, press Ctrl-C again, or Ctrl-D, or type /exit)');
      rl.prompt();
    }
  });
  for (const note of notes) printer.line(note);
  rl.prompt();
  for await (const raw of rl) {
    leaveOnNextInterrupt = false;
    const line = raw.trim();
    if (line === '/exit' || line === '/quit') break;
    if (line === '') {
      rl.prompt();
      continue;
    }
    if (line.startsWith('/')) {
      await runSlashCommand(line, built, tools, conversationId, printer);
      rl.prompt();
      continue;
    }
    running = new AbortController();
    try {
      printer.beginAnswer();
      const stream = built.client
        .prompt(line)
        .advisors((a) => a.param(CONVERSATION_ID, conversationId))
        .stream({ signal: running.signal })
        .content();
      for await (const delta of stream) printer.text(delta);
      printer.endAnswer();
    } catch (error) {
      printer.endAnswer();
      printer.line(running.signal.aborted ? '(stopped)' : `error: ${(error as Error).message}`);
    } finally {
      running = undefined;
    }
    rl.prompt();
  }
  rl.close();
}

async function runSlashCommand(
  line: string,
  built: ConfiguredChatClient,
  tools: readonly ToolSource[],
  conversationId: string,
  printer: ChatPrinter,
): Promise<void> {
  const command = line.split(/\s+/)[0];
  try {
    if (command === '/tools') {
      const { callbacks, providers } = collectToolSources([
        ...tools,
        ...(built.mcpTools ? [built.mcpTools] : []),
      ]);
      const all = [...callbacks];
      for (const provider of providers) all.push(...(await provider.getToolCallbacks()));
      if (all.length === 0) printer.line('no tools');
      for (const tool of all) {
        printer.line(`${tool.definition.name}: ${tool.definition.description.split('\n')[0]}`);
      }
    } else if (command === '/history') {
      if (!built.chatMemory) return printer.line('memory is off (--memory none)');
      const messages = await built.chatMemory.get(conversationId);
      if (messages.length === 0) printer.line('no messages yet');
      for (const message of messages) printer.line(describeMessage(message));
    } else if (command === '/clear') {
      if (!built.chatMemory) return printer.line('memory is off (--memory none)');
      await built.chatMemory.clear(conversationId);
      printer.line(`conversation "${conversationId}" cleared`);
    } else {
      printer.line(`unknown command ${command}: /tools /history /clear /exit`);
    }
  } catch (error) {
    printer.line(`error: ${(error as Error).message}`);
  }
}
