import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/observability/index.js';
import { FixtureHttpServer, sendEvents } from '../integration/support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse } from '../integration/support/provider-fixtures.js';
import { assertCliBuilt, cleanEnv, cliPath } from './cli-process.js';
import { writeToolsModule } from './tools-module.js';

const haveTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
if (!haveTmux && process.env.CI) {
  throw new Error(
    'tmux is missing: the chat terminal tests cannot skip under CI (apt-get install tmux)',
  );
}
if (!haveTmux) console.warn('[toolloop] tmux is not installed: skipping the chat terminal tests');

const { dir, module } = writeToolsModule();
const session = `toolloop-chat-${process.pid}`;

function tmux(...args: string[]): string {
  const run = spawnSync('tmux', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** The visible screen and scrollback of the chat's terminal, blank lines dropped. */
function screen(): string {
  return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', session)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
}

async function waitFor(
  test: (text: string) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = screen();
    if (test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}; the terminal shows:\n${text}`);
}

/** Starts `toolloop chat <args>` in a real terminal; the shell prints EXIT=<code> when it ends. */
function startChat(args: string[], env: Record<string, string> = {}): void {
  const environment = cleanEnv(env);
  const exports = Object.entries(environment)
    .filter(([name]) => /^[A-Z_][A-Z0-9_]*$/i.test(name))
    .map(([name, value]) => `${name}=${JSON.stringify(value ?? '')}`)
    .join(' ');
  const command = `cd ${JSON.stringify(dir)} && env -i ${exports} ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} chat ${args.map((arg) => JSON.stringify(arg)).join(' ')}; echo EXIT=$?; sleep 60`;
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '50', command);
}

/** Types a line once the prompt is waiting for one. */
async function type(line: string): Promise<void> {
  const prompts = (screen().match(/^you> /gm) ?? []).length;
  tmux('send-keys', '-t', session, '-l', line);
  tmux('send-keys', '-t', session, 'Enter');
  await waitFor(
    (text) => (text.match(/^you> /gm) ?? []).length > prompts,
    `the prompt after "${line}"`,
  );
}

/** Runs `toolloop trace <recording>` and returns the events the page embeds and draws. */
function tracePageEvents(recording: string, args: string[] = []): TurnEvent[] {
  const page = join(dir, `page-${Date.now()}.html`);
  const run = spawnSync(
    process.execPath,
    [cliPath, 'trace', recording, '--output', page, ...args],
    { encoding: 'utf8', env: cleanEnv() },
  );
  expect(run.status, run.stderr).toBe(0);
  const html = readFileSync(page, 'utf8');
  const data = /<script type="application\/json" id="toolloop-trace-data">([^<]*)<\/script>/.exec(
    html,
  );
  expect(data, 'the page embeds its events').not.toBeNull();
  return (JSON.parse(data![1]!) as { events: TurnEvent[] }).events;
}

/** An OpenAI Chat Completions stream answering with `pieces` of text. */
function textStream(pieces: string[]): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'local', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${pieces.map((piece) => chunk({ content: piece }, null)).join('')}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

/** `name#id` of every tool call the page draws (from the model's calls). */
function drawnToolCalls(events: readonly TurnEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'tool-call' ? [`${event.toolCall.name}#${event.toolCall.id}`] : [],
  );
}

beforeAll(() => assertCliBuilt());
afterEach(() => {
  if (haveTmux) spawnSync('tmux', ['kill-session', '-t', session]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveTmux)('toolloop chat in a terminal', () => {
  it('with the scripted model: tool calls shown as they run, /tools, /history, /clear, /exit', async () => {
    const script = join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify([
        { toolCalls: [{ name: 'getWeather', arguments: { city: 'Paris' } }] },
        { text: 'It is 21 degrees and sunny in Paris.' },
      ]),
    );
    const memory = join(dir, 'scripted.sqlite');
    startChat([
      '--model',
      'scripted',
      '--script',
      script,
      '--tools',
      module,
      '--memory',
      memory,
      '--conversation',
      'trip',
    ]);
    await waitFor((text) => /^you> /m.test(text), 'the first prompt');
    expect(screen()).toContain(`toolloop chat: conversation "trip", kept in ${memory}.`);
    expect(screen()).toContain(`model: scripted, playing ${script}`);

    await type('What is the weather in Paris?');
    const answered = screen();
    expect(answered).toContain('  [tool] getWeather {"city":"Paris"}');
    expect(answered).toMatch(
      /\[tool\] getWeather returned \{"city":"Paris","temperature":21,"sky":"sunny"\} in \d+ ms/,
    );
    expect(answered).toContain('assistant> It is 21 degrees and sunny in Paris.');
    // The tool lines come before the answer that used them.
    expect(answered.indexOf('[tool] getWeather {')).toBeLessThan(
      answered.indexOf('assistant> It is'),
    );

    await type('/tools');
    expect(screen()).toContain('getWeather: Current weather of a city');
    expect(screen()).toContain('failing: Always fails');

    await type('/history');
    const history = screen().slice(screen().lastIndexOf('you> /history'));
    expect(history).toContain('you: What is the weather in Paris?');
    expect(history).toContain('assistant: It is 21 degrees and sunny in Paris.');

    await type('/clear');
    expect(screen()).toContain('conversation "trip" cleared');
    await type('/history');
    expect(screen().slice(screen().lastIndexOf('you> /history'))).toContain('no messages yet');

    tmux('send-keys', '-t', session, '-l', '/exit');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor((text) => text.includes('EXIT='), 'the chat to exit');
    expect(screen()).toContain('EXIT=0');
    expect(existsSync(memory)).toBe(true);
  }, 90_000);

  it('records every turn with --record, and toolloop trace draws every tool call of the chat', async () => {
    const script = join(dir, 'record-script.json');
    writeFileSync(
      script,
      JSON.stringify([
        {
          toolCalls: [
            { id: 'call-paris', name: 'getWeather', arguments: { city: 'Paris' } },
            { id: 'call-broken', name: 'failing', arguments: {} },
          ],
        },
        { text: 'Paris is sunny; the other service is down.' },
        {
          toolCalls: [{ id: 'call-sf', name: 'getWeather', arguments: { city: 'San Francisco' } }],
        },
        { text: 'San Francisco is foggy.' },
      ]),
    );
    const recording = join(dir, 'recordings', 'chat.jsonl');
    startChat([
      '--model',
      'scripted',
      '--script',
      script,
      '--tools',
      module,
      '--memory',
      'none',
      '--record',
      recording,
    ]);
    await waitFor((text) => /^you> /m.test(text), 'the first prompt');
    expect(screen()).toContain(`recording turns to ${recording}`);
    await type('Weather in Paris, and check the broken service');
    await type('And San Francisco?');
    expect(screen()).toContain('assistant> San Francisco is foggy.');
    tmux('send-keys', '-t', session, '-l', '/exit');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor((text) => text.includes('EXIT='), 'the chat to exit');
    expect(screen()).toContain('EXIT=0');

    const events = tracePageEvents(recording);
    expect(new Set(events.map((event) => event.turnId)).size).toBe(2);
    expect(drawnToolCalls(events)).toEqual([
      'getWeather#call-paris',
      'failing#call-broken',
      'getWeather#call-sf',
    ]);
    const results = events.flatMap((event) =>
      event.type === 'tool-result' ? [`${event.toolCallId}:${event.outcome}`] : [],
    );
    expect(results.sort()).toEqual(['call-broken:error', 'call-paris:ok', 'call-sf:ok']);
    // No --include-content: the file names the calls but holds no argument or result.
    const text = readFileSync(recording, 'utf8');
    expect(text).not.toContain('Paris"');
    expect(text).not.toContain('sunny');
  }, 90_000);

  it('records tool arguments and results only with --include-content', async () => {
    const script = join(dir, 'content-script.json');
    writeFileSync(
      script,
      JSON.stringify([
        { toolCalls: [{ id: 'call-paris', name: 'getWeather', arguments: { city: 'Paris' } }] },
        { text: 'Sunny.' },
      ]),
    );
    const recording = join(dir, 'content.jsonl');
    startChat(['--model', 'scripted', '--script', script, '--tools', module, '--memory', 'none'], {
      TOOLLOOP_OBSERVABILITY_RECORDING_FILE: recording,
      SPRING_AI_TOOLS_OBSERVATIONS_INCLUDE_CONTENT: 'true',
    });
    await waitFor((text) => /^you> /m.test(text), 'the first prompt');
    expect(screen()).toContain('(with tool arguments and results)');
    await type('Weather in Paris?');
    tmux('send-keys', '-t', session, 'C-d');
    await waitFor((text) => text.includes('EXIT='), 'the chat to exit');
    const events = tracePageEvents(recording, ['--include-content']);
    const call = events.find((event) => event.type === 'tool-call');
    expect(call?.type === 'tool-call' && call.toolCall.arguments).toBe('{"city":"Paris"}');
    const result = events.find((event) => event.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.result).toContain('sunny');
  }, 90_000);

  it('against a local OpenAI-compatible server: says which model and URL it talks to and where the conversation is kept, never the key', async () => {
    const server = new FixtureHttpServer();
    await server.start();
    try {
      server.replyAlways(sendEvents(textStream(['Hello', ' there.'])));
      const data = join(dir, 'xdg-data');
      startChat(['--tools', module], {
        OPENAI_BASE_URL: `${server.baseUrl}/v1`,
        OPENAI_MODEL: 'local-model',
        OPENAI_API_KEY: 'sk-banner-SECRET-0123456789',
        XDG_DATA_HOME: data,
      });
      await waitFor((text) => /^you> /m.test(text), 'the first prompt');
      const banner = screen();
      expect(banner).toContain(
        `toolloop chat: conversation "default", kept in ${join(data, 'toolloop', 'chat.sqlite')} (--memory chooses another place, or none).`,
      );
      expect(banner).toContain(`model: local-model (openai) at ${server.baseUrl}/v1`);
      expect(banner).not.toContain('SECRET');
      await type('Hi');
      expect(screen()).toContain('assistant> Hello there.');
      tmux('send-keys', '-t', session, 'C-d');
      await waitFor((text) => text.includes('EXIT='), 'the chat to exit');
      expect(existsSync(join(data, 'toolloop', 'chat.sqlite'))).toBe(true);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('Ctrl-C clears a typed line, then explains how to leave, and a second Ctrl-C leaves; during an answer it stops the answer', async () => {
    const server = new FixtureHttpServer();
    await server.start();
    try {
      // The first answer starts and then hangs, until Ctrl-C stops it; the second is whole.
      server.reply(
        async (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write(`${textStream(['Thinking']).split('\n\n')[0]}\n\n`);
        },
        sendEvents(textStream(['Done.'])),
      );
      startChat(['--memory', 'none'], {
        OPENAI_BASE_URL: `${server.baseUrl}/v1`,
        OPENAI_MODEL: 'local-model',
      });
      await waitFor((text) => /^you> /m.test(text), 'the first prompt');
      expect(screen()).toContain(
        'toolloop chat: conversation "default" (memory off: nothing is kept).',
      );

      tmux('send-keys', '-t', session, '-l', 'Tell me a long story');
      tmux('send-keys', '-t', session, 'Enter');
      await waitFor((text) => text.includes('assistant> Thinking'), 'the answer to start');
      tmux('send-keys', '-t', session, 'C-c');
      await waitFor((text) => text.includes('(stopped)'), 'the answer to stop');
      await waitFor((text) => /^you> $/m.test(text.split('\n').at(-1) ?? ''), 'the prompt again');

      tmux('send-keys', '-t', session, '-l', 'half a question');
      await waitFor((text) => text.includes('you> half a question'), 'the typed text');
      tmux('send-keys', '-t', session, 'C-c');
      await waitFor((text) => !text.includes('half a question'), 'the line to be cleared');
      expect(screen()).not.toContain('EXIT=');

      tmux('send-keys', '-t', session, 'C-c');
      await waitFor(
        (text) => text.includes('(To leave, press Ctrl-C again, or Ctrl-D, or type /exit)'),
        'the hint',
      );
      expect(screen()).not.toContain('EXIT=');
      await type('And a short one?');
      expect(screen()).toContain('assistant> Done.');

      // Typing in between starts over: one Ctrl-C only explains again.
      tmux('send-keys', '-t', session, 'C-c');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(screen()).not.toContain('EXIT=');
      tmux('send-keys', '-t', session, 'C-c');
      await waitFor((text) => text.includes('EXIT='), 'the chat to leave on the second Ctrl-C');
      expect(screen()).toContain('EXIT=0');
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('against a local OpenAI-compatible server: streamed answer, recorded tool call, memory kept across runs', async () => {
    const server = new FixtureHttpServer();
    await server.start();
    try {
      // Turn 1: the recorded xAI stream calling `weather`, then a streamed answer in pieces.
      const answer = ['Fog', 'gy in San', ' Francisco', ' today.'];
      const textStream =
        answer
          .map(
            (piece) =>
              `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'local', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
          )
          .join('') +
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'local', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
      server.reply(
        sendEvents(
          frameChunksAsSse(
            fixtureText('openai-chat-completions/xai-tool-call.chunks.txt'),
            'openai',
          ),
        ),
        sendEvents(textStream),
        sendEvents(textStream),
      );
      const memory = join(dir, 'openai.sqlite');
      const env = { OPENAI_BASE_URL: `${server.baseUrl}/v1`, OPENAI_MODEL: 'local-model' };
      const recording = join(dir, 'openai-turns.jsonl');
      startChat(['--tools', module, '--memory', memory, '--record', recording], env);
      await waitFor((text) => /^you> /m.test(text), 'the first prompt');
      await type('Weather in San Francisco?');
      const shown = screen();
      expect(shown).toContain('[tool] weather {"location":"San Francisco"}');
      expect(shown).toMatch(
        /\[tool\] weather returned \{"location":"San Francisco","sky":"foggy"\}/,
      );
      expect(shown).toContain('assistant> Foggy in San Francisco today.');

      const first = server.requests[0]?.body as {
        model: string;
        stream: boolean;
        tools: { function: { name: string } }[];
      };
      expect(first.model).toBe('local-model');
      expect(first.stream).toBe(true);
      expect(first.tools.map((t) => t.function.name).sort()).toEqual([
        'failing',
        'getWeather',
        'weather',
      ]);
      const second = server.requests[1]?.body as {
        messages: { role: string; content?: string }[];
      };
      expect(second.messages.at(-1)).toMatchObject({ role: 'tool' });
      expect(second.messages.at(-1)?.content).toContain('foggy');

      tmux('send-keys', '-t', session, 'C-d');
      await waitFor((text) => text.includes('EXIT='), 'the chat to exit on Ctrl-D');
      expect(screen()).toContain('EXIT=0');
      spawnSync('tmux', ['kill-session', '-t', session]);

      // A new run of the chat continues the stored conversation: the model is sent turn 1.
      startChat(['--tools', module, '--memory', memory, '--record', recording], env);
      await waitFor((text) => /^you> /m.test(text), 'the prompt of the second run');
      await type('And tomorrow?');
      const third = server.requests[2]?.body as {
        messages: { role: string; content?: string }[];
      };
      expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(third.messages[0]?.content).toBe('Weather in San Francisco?');
      expect(third.messages[1]?.content).toBe('Foggy in San Francisco today.');
      expect(readFileSync(memory).length).toBeGreaterThan(0);
      tmux('send-keys', '-t', session, 'C-d');
      await waitFor((text) => text.includes('EXIT='), 'the second run to exit');
      // Both runs appended to one recording: two turns, the recorded call of the first drawn.
      const events = tracePageEvents(recording);
      expect(new Set(events.map((event) => event.turnId)).size).toBe(2);
      const calls = drawnToolCalls(events);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatch(/^weather#/);
      expect(
        events.filter((event) => event.type === 'model-call-end').map((e) => e.iteration),
      ).toEqual([1, 2, 1]);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
