import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../package/packed-package.js';

/** Runs the import-rule check (part of `npm run lint`) on a source tree. */
function check(srcDir?: string): { status: number | null; output: string } {
  const script = join(projectRoot, 'scripts', 'check-imports.mjs');
  const result = spawnSync(process.execPath, [script, ...(srcDir ? [srcDir] : [])], {
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

let fixture = '';
/** A source tree of the given files (path → text) in a fresh temporary folder. */
function tree(files: Record<string, string>): string {
  fixture = mkdtempSync(join(tmpdir(), 'toolloop-imports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(fixture, path)), { recursive: true });
    writeFileSync(join(fixture, path), text);
  }
  return fixture;
}

afterEach(() => {
  if (fixture) rmSync(fixture, { recursive: true, force: true });
  fixture = '';
});

const layered = {
  'index.ts': "export { ChatClient } from './client/chat-client.js';\n",
  'messages/message.ts': 'export type Message = { role: string };\n',
  'model/chat-model.ts':
    "import type { Message } from '../messages/message.js';\nimport type { Tool } from '../tools/tool.js';\nexport type ChatModel = { call(m: Message[], t: Tool[]): void };\n",
  'tools/tool.ts':
    "import type { Message } from '../messages/message.js';\nexport type Tool = { run(m: Message): void };\n",
  'advisors/advisor.ts':
    "import type { Message } from '../messages/message.js';\nexport type Advisor = { m?: Message };\n",
  'client/chat-client.ts':
    "import type { Advisor } from '../advisors/advisor.js';\nexport class ChatClient { a?: Advisor }\n",
};

describe('the import rules (npm run lint)', () => {
  it('hold for the project', () => {
    const { status, output } = check();
    expect(output).toMatch(/^Import rules hold for \d+ modules/);
    expect(status).toBe(0);
  });

  it('accept a layered tree, including a type-only import the rules allow (model → tools)', () => {
    expect(check(tree(layered))).toEqual({
      status: 0,
      output: expect.stringContaining('Import rules hold for 6 modules'),
    });
  });

  it('reject a forbidden direction: advisors importing the client', () => {
    const { status, output } = check(
      tree({
        ...layered,
        'advisors/advisor.ts':
          "import { ChatClient } from '../client/chat-client.js';\nexport const made = new ChatClient();\n",
      }),
    );
    expect(status).toBe(1);
    expect(output).toContain(
      "src/advisors/advisor.ts imports '../client/chat-client.js': 'advisors' may not import 'client'",
    );
  });

  it('reject a runtime import where only types are allowed (model → tools)', () => {
    const { status, output } = check(
      tree({
        ...layered,
        'model/chat-model.ts':
          "import { helper } from '../tools/helper.js';\nexport const x = helper;\n",
        'tools/helper.ts': 'export const helper = 1;\n',
      }),
    );
    expect(status).toBe(1);
    expect(output).toContain("'model' may not import 'tools'");
  });

  it('reject an import cycle, naming every module on it', () => {
    const { status, output } = check(
      tree({
        ...layered,
        'tools/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'tools/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      }),
    );
    expect(status).toBe(1);
    expect(output).toMatch(
      /import cycle: src\/tools\/(a|b)\.ts → src\/tools\/(b|a)\.ts → src\/tools\/\1\.ts/,
    );
  });

  it('reject an optional peer reachable from the root entry, and a folder without a rule', () => {
    const { status, output } = check(
      tree({
        ...layered,
        'client/chat-client.ts':
          "import pg from 'pg';\nimport { x } from '../widgets/x.js';\nexport class ChatClient { p = pg; y = x }\n",
        'widgets/x.ts': 'export const x = 1;\n',
      }),
    );
    expect(status).toBe(1);
    expect(output).toContain(
      'src/client/chat-client.ts imports the optional peer pg and is reachable from src/index.ts',
    );
    expect(output).toContain('src/widgets has no import rule');
  });

  it('reject a value re-exported from internal/', () => {
    const { status, output } = check(
      tree({
        ...layered,
        'internal/secret.ts': 'export const secret = 1;\n',
        'client/index.ts': "export { secret } from '../internal/secret.js';\n",
      }),
    );
    expect(status).toBe(1);
    expect(output).toContain("src/client/index.ts re-exports '../internal/secret.js'");
  });
});
