import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_SDK_MISSING } from '../../src/demo/mcp-demo.js';
import { DEMO_SCENARIOS } from '../../src/demo/run-demo.js';
import { cleanEnv } from '../cli/cli-process.js';
import { installIntoConsumer, packPackage, projectRoot } from './packed-package.js';

const version = (name: string) =>
  (
    JSON.parse(readFileSync(join(projectRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

let consumer = '';

/** `npx toolloop demo` in the consumer project, as a user runs it. */
function npxDemo(): SpawnSyncReturns<string> {
  return spawnSync('npx', ['--no', 'toolloop', 'demo'], {
    cwd: consumer,
    encoding: 'utf8',
    env: cleanEnv(),
    timeout: 120_000,
  });
}

/** better-sqlite3 as built in this checkout (npm prunes it from the consumer on every install). */
function copyBuiltSqlite(): void {
  for (const name of ['better-sqlite3', 'bindings', 'file-uri-to-path']) {
    cpSync(join(projectRoot, 'node_modules', name), join(consumer, 'node_modules', name), {
      recursive: true,
    });
  }
}

/**
 * The trace page the demo wrote: in a folder of its own in the system's temporary directory, not
 * in the user's project. The folder is removed here, as a user's system would in time.
 */
function takeTracePage(output: string): string {
  const url = /open the trace page: (file:\/\/\S+)/.exec(output)?.[1];
  expect(url, 'the demo prints where the trace page is').toBeDefined();
  const page = fileURLToPath(url as string);
  expect(existsSync(page)).toBe(true);
  expect(page.startsWith(join(tmpdir(), 'toolloop-demo-'))).toBe(true);
  expect(existsSync(join(consumer, '.toolloop-data'))).toBe(false);
  rmSync(dirname(page), { recursive: true, force: true });
  return page;
}

const headings = (output: string) => output.split('\n').filter((line) => /^== .* ==$/.test(line));

/**
 * Packs the package, installs the tarball into an empty project with the packages the demo
 * needs (zod from the npm cache; better-sqlite3 copied already built from this checkout, because
 * compiling it offline takes minutes), and runs `npx toolloop demo` there: first without the
 * optional MCP SDK, then with it.
 */
beforeAll(() => {
  consumer = mkdtempSync(join(tmpdir(), 'toolloop-demo-consumer-'));
  installIntoConsumer(consumer, [packPackage(consumer), `zod@${version('zod')}`], ['--omit=peer']);
  copyBuiltSqlite();
}, 240_000);
afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe('npx toolloop demo, installed from the packed tarball', () => {
  it('lists the scenarios npm start shows: the article scenarios, augmentation, approval, MCP and the trace page', () => {
    const titles = DEMO_SCENARIOS.map((scenario) => scenario.title);
    for (const topic of [
      'The plain case',
      'returnDirect',
      'ToolContext',
      'Tool Search',
      'Chat memory',
      'augmentation',
      'Approval gate',
      'MCP: consume',
      'MCP: expose',
      'MCP: local and MCP tools',
      'The trace page',
    ]) {
      expect(
        titles.some((title) => title.includes(topic)),
        topic,
      ).toBe(true);
    }
  });

  it('without the MCP SDK: runs every other scenario and says in one line how to enable MCP', () => {
    const run = npxDemo();
    expect(run.status, run.stderr).toBe(0);
    const expected = DEMO_SCENARIOS.filter((scenario) => !scenario.needsMcp).map(
      (scenario) => `== ${scenario.title} ==`,
    );
    expect(headings(run.stdout)).toEqual(expected);
    expect(run.stdout.split('\n').filter((line) => line === MCP_SDK_MISSING)).toHaveLength(1);
    takeTracePage(run.stdout);
  }, 150_000);

  it('names the missing package when the config asks for OpenTelemetry without @opentelemetry/api', () => {
    const script =
      "const { loadConfig, chatClientFromConfig } = await import('toolloop/config');" +
      "const { ScriptedChatModel } = await import('toolloop/testing');" +
      'const config = await loadConfig({ env: false, overrides: { observability: { openTelemetry: true } } });' +
      'try { await chatClientFromConfig(config, { chatModel: new ScriptedChatModel([]) }); console.log("built"); }' +
      'catch (error) { console.log(error.message); }';
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(
      'toolloop.observability.open-telemetry=true needs the package @opentelemetry/api: npm install @opentelemetry/api',
    );
  });

  it('with the MCP SDK installed: runs every scenario, the MCP ones against toolloop mcp serve', () => {
    const sdk = '@modelcontextprotocol/sdk';
    installIntoConsumer(consumer, [`${sdk}@${version(sdk)}`], ['--no-save']);
    copyBuiltSqlite();
    const run = npxDemo();
    expect(run.status, run.stderr).toBe(0);
    expect(headings(run.stdout)).toEqual(
      DEMO_SCENARIOS.map((scenario) => `== ${scenario.title} ==`),
    );
    expect(run.stdout).not.toContain(MCP_SDK_MISSING);
    expect(run.stdout).toContain('MCP tools offered: add, get_order_status');
    expect(run.stdout).toContain('add → 42');
    expect(takeTracePage(run.stdout)).toMatch(/demo-turns\.html$/);
  }, 240_000);
});
