import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixtureHttpServer, sendEvents } from '../integration/support/fixture-http-server.js';
import {
  fixtureText,
  frameChunksAsSse,
  responsesStreamsOf,
} from '../integration/support/provider-fixtures.js';
import { projectRoot } from '../package/packed-package.js';
import { assertCliBuilt, cleanEnv, cliPath } from './cli-process.js';
import { writeToolsModule } from './tools-module.js';

// `toolloop chat --model openai-responses:<model>` and `--model google:<model>` against recorded
// traffic on a local server: the model id picks the adapter, the adapter reads its own
// environment, the tool runs, and the answer is printed. Lines are piped in (no terminal).

const { dir, module } = writeToolsModule();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: FixtureHttpServer;
beforeEach(async () => {
  assertCliBuilt();
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

/** Runs the chat with the given lines on its standard input, to its end. */
function chat(args: string[], env: Record<string, string>, input: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'chat', ...args], {
      cwd: projectRoot,
      env: cleanEnv(env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('toolloop chat with the new providers', () => {
  it('--model google:<model> reads GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, runs the tool, prints the answer', async () => {
    const gemini = (file: string) =>
      sendEvents(frameChunksAsSse(fixtureText(`google-gemini/${file}`), 'data'));
    server.reply(gemini('google-tool-call-gemini3.chunks.txt'), gemini('google-text.chunks.txt'));
    const run = await chat(
      ['--model', 'google:gemini-3-pro-preview', '--tools', module, '--memory', 'none'],
      { GEMINI_API_KEY: 'AIza-cli-test-0123456789', GOOGLE_GEMINI_BASE_URL: server.baseUrl },
      'Weather in San Francisco?\n',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('[tool] weather {"location":"San Francisco"}');
    expect(run.stdout).toContain('strawberry');
    expect(server.requests[0]?.url).toBe(
      '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    );
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('AIza-cli-test-0123456789');
    const second = server.requests[1]?.body as { contents: { parts: Record<string, unknown>[] }[] };
    expect(second.contents[1]?.parts[0]?.thoughtSignature).toEqual(expect.any(String));
  });

  it('--model openai-responses:<model> reads OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    const [step] = responsesStreamsOf(fixtureText('openai-responses/azure-tool-call.1.chunks.txt'));
    const answer = responsesStreamsOf(
      fixtureText('openai-responses/openai-reasoning-encrypted-content.1.chunks.txt'),
    )[3]!;
    server.reply(
      sendEvents(frameChunksAsSse(step!, 'data')),
      sendEvents(frameChunksAsSse(answer, 'data')),
    );
    const run = await chat(
      ['--model', 'openai-responses:gpt-5.1', '--tools', module, '--memory', 'none'],
      { OPENAI_API_KEY: 'sk-cli-test-0123456789', OPENAI_BASE_URL: `${server.baseUrl}/v1` },
      'Weather in San Francisco?\n',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('[tool] weather {"location":"San Francisco"}');
    expect(run.stdout).toContain('The final result is **570**.');
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/responses',
      '/v1/responses',
    ]);
    expect(server.requests[1]?.body).toMatchObject({ model: 'gpt-5.1', store: false });
  });
});
