import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolServer } from '../../src/mcp/server/index.js';
import { conformanceFixtureServer } from './fixture-server.js';

// The official MCP conformance suite needs Node 22+; it runs on the Node 24 binary of the npm
// package `node` installed in this folder (`npm ci --prefix test/conformance`, done by .ci/run),
// while toolloop, its fixture server and its client run on the Node of the tests.
const here = fileURLToPath(new URL('.', import.meta.url));
const projectRoot = join(here, '..', '..');
const node24 = join(here, 'node_modules', 'node', 'bin', 'node');
const suite = join(
  here,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);
const installed = existsSync(node24) && existsSync(suite);
if (!installed && process.env.CI) {
  throw new Error('The MCP conformance suite is missing: run npm ci --prefix test/conformance');
}

interface SuiteRun {
  output: string;
  exitCode: number;
  /** scenario → [passed checks, failed checks] */
  scenarios: Map<string, [number, number]>;
  total: { passed: number; failed: number };
}

function runSuite(args: string[]): Promise<SuiteRun> {
  return new Promise((resolve) => {
    execFile(
      node24,
      [suite, ...args],
      { cwd: here, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const scenarios = new Map<string, [number, number]>();
        for (const match of output.matchAll(/^[✓✗!] ([\w/-]+): (\d+) passed, (\d+) failed/gmu)) {
          scenarios.set(match[1] as string, [Number(match[2]), Number(match[3])]);
        }
        const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
        resolve({
          output,
          exitCode: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          scenarios,
          total: { passed: Number(total?.[1] ?? 0), failed: Number(total?.[2] ?? 0) },
        });
      },
    );
  });
}

const toolScenario = /^(tools-|dns-rebinding|json-schema|elicitation-|server-initialize|ping)/;

if (!installed)
  console.warn('Skipping the MCP conformance suite: run npm ci --prefix test/conformance');

describe.skipIf(!installed)('the official MCP conformance suite', () => {
  let server: McpToolServer;
  let url: URL;

  beforeAll(async () => {
    server = conformanceFixtureServer();
    url = (await server.listen()).url;
    // The suite's DNS-rebinding scenario needs a localhost URL.
    url.hostname = 'localhost';
  });

  afterAll(async () => {
    await server?.close();
  });

  it('server scenarios: every tools and DNS-rebinding scenario passes against toolloop’s server', async () => {
    const run = await runSuite([
      'server',
      '--url',
      url.href,
      '--suite',
      'all',
      '--expected-failures',
      join(here, 'expected-failures.yml'),
    ]);
    const toolScenarios = [...run.scenarios].filter(([name]) => toolScenario.test(name));
    expect(toolScenarios.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'tools-list',
        'tools-call-error',
        'json-schema-2020-12',
        'dns-rebinding-protection',
      ]),
    );
    for (const [name, [passed, failed]] of toolScenarios) {
      expect({ name, failed, passed: passed > 0 }).toEqual({ name, failed: 0, passed: true });
    }
    // Exit 0: only the baseline (prompts, resources, completions) failed.
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    console.log(
      `MCP conformance (server): ${run.total.passed} checks passed, ${run.total.failed} failed (expected: ${
        [...run.scenarios].filter(([, [, failed]]) => failed > 0).length
      } scenarios outside tools)`,
    );
  }, 150_000);

  describe('client scenarios run toolloop’s client', () => {
    beforeAll(() => {
      if (!existsSync(join(projectRoot, 'dist', 'mcp', 'index.js'))) {
        execFileSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'pipe' });
      }
    }, 180_000);

    it.each(['initialize', 'tools_call'])(
      '%s',
      async (scenario) => {
        const command = `${process.execPath} ${join(here, 'toolloop-client.mjs')}`;
        const run = await runSuite(['client', '--command', command, '--scenario', scenario]);
        expect(run.exitCode, run.output.slice(-3000)).toBe(0);
        expect(run.output).toMatch(/Passed: \d+\/\d+, 0 failed|0 failed/);
      },
      60_000,
    );
  });
});
