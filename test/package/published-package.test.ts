import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installIntoConsumer, packPackage, projectRoot } from './packed-package.js';

// What a user downloads from the registry: the tarball `npm pack` makes from the build. It is
// checked by publint and by Are The Types Wrong (ESM-only profile), its contents are listed, and a
// consumer project type-checks against its declarations with skipLibCheck off.

const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name);
const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as Record<
  string,
  unknown
> & {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the published package', () => {
  let workDir = '';
  let tarball = '';
  let files: string[] = [];

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'toolloop-published-'));
    tarball = packPackage(workDir);
    files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((file) => file.replace(/^package\//, ''));
  }, 180_000);

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('passes publint in strict mode', () => {
    const result = run(bin('publint'), ['run', '--strict', tarball], workDir);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain('All good');
  }, 60_000);

  it('passes Are The Types Wrong with the ESM-only profile', () => {
    const result = run(bin('attw'), [tarball, '--profile', 'esm-only'], workDir);
    expect(result.status, result.output).toBe(0);
  }, 120_000);

  it('weighs at most 1.5 MB packed and ships no data table', () => {
    // The word tables live in the opt-in @toolloop/word-vectors (packages/word-vectors).
    expect(statSync(tarball).size).toBeLessThanOrEqual(1_500_000);
    expect(files.filter((file) => /^lexicon\/|\.bin\.gz$|^packages\//.test(file))).toEqual([]);
    expect(manifest.optionalDependencies).toBeUndefined();
  });

  it('ships the licence, its NOTICE and no source maps, tests or test-data generators', () => {
    expect(files).toContain('LICENSE');
    expect(files).toContain('NOTICE');
    // The NOTICE describes what the package holds: no bundled data any more.
    expect(readFileSync(join(projectRoot, 'NOTICE'), 'utf8')).not.toMatch(/^lexicon\//m);
    expect(readFileSync(join(projectRoot, 'LICENSE'), 'utf8')).toMatch(
      /Copyright \d{4} the toolloop authors[\s\S]*Apache License\s+Version 2\.0/,
    );
    // Maps would point at src/, which is not shipped; the build emits none.
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    // One exception: `toolloop demo` shows the 230-tool library of the tool search scenario, so
    // its generator ships with the compiled demo (dist/demo imports it).
    const demoData = /^dist\/tool-search\/testing\/generate-tool-library\.(js|d\.ts)$/;
    expect(
      files.filter(
        (file) =>
          /\.test\.|__tests__|generate-|\/testing\/generate/.test(file) && !demoData.test(file),
      ),
    ).toEqual([]);
    expect(files.some((file) => file.startsWith('src/'))).toBe(false);
  });

  it('strips @internal members from the declarations', () => {
    const declarations = files.filter((file) => file.endsWith('.d.ts'));
    const extracted = join(workDir, 'extracted');
    mkdirSync(extracted, { recursive: true });
    execFileSync('tar', ['xzf', tarball, '-C', extracted]);
    for (const file of declarations) {
      const text = readFileSync(join(extracted, 'package', file), 'utf8');
      expect(text, file).not.toContain('@internal');
    }
    const requestSpec = readFileSync(
      join(extracted, 'package', 'dist', 'client', 'chat-client-request-spec.d.ts'),
      'utf8',
    );
    expect(requestSpec).not.toContain('applyAdvisorEntries');
  });

  it('type-checks in a consumer project with skipLibCheck off', () => {
    const consumer = join(workDir, 'consumer');
    mkdirSync(consumer, { recursive: true });
    installIntoConsumer(consumer, [tarball], ['--omit=peer']);
    // The MCP entry points' declarations name the SDK's types, like their code needs the SDK;
    const sdk = JSON.parse(
      readFileSync(
        join(projectRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'),
        'utf8',
      ),
    ) as { version: string };
    // toolloop/otel's declarations name the OpenTelemetry API's types, like its code needs it.
    const otelApi = JSON.parse(
      readFileSync(
        join(projectRoot, 'node_modules', '@opentelemetry', 'api', 'package.json'),
        'utf8',
      ),
    ) as { version: string };
    installIntoConsumer(
      consumer,
      [`@modelcontextprotocol/sdk@${sdk.version}`, `@opentelemetry/api@${otelApi.version}`],
      ['--no-save'],
    );
    const specifiers = Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'toolloop' : `toolloop/${key.slice(2)}`));
    writeFileSync(
      join(consumer, 'index.ts'),
      `${specifiers.map((specifier, i) => `import * as entry${i} from '${specifier}';`).join('\n')}\n` +
        "import { ChatClient, tool } from 'toolloop';\n" +
        "import { ScriptedChatModel, textResponse } from 'toolloop/testing';\n" +
        "const echo = tool({ name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { word: { type: 'string' } } }, execute: (input) => input });\n" +
        "const answer: Promise<string | null> = ChatClient.create(new ScriptedChatModel([textResponse('hi')])).prompt('hello').tools(echo).call().content();\n" +
        // The request spec is a type only: made by ChatClient.prompt(), never by a user.
        "import type { ChatClientRequestSpec } from 'toolloop';\n" +
        'export const spec: ChatClientRequestSpec = ChatClient.create(new ScriptedChatModel([])).prompt();\n' +
        '// @ts-expect-error made by ChatClient.prompt() only\nnew ChatClientRequestSpec();\n' +
        `export const all = [${specifiers.map((_, i) => `entry${i}`).join(', ')}, answer];\n`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          typeRoots: [join(projectRoot, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['index.ts'],
      }),
    );
    const result = run(
      process.execPath,
      [join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer],
      consumer,
    );
    expect(result.status, result.output).toBe(0);
  }, 240_000);

  it('declares its metadata, caret ranges for runtime dependencies and zod ^4.2 as an optional peer', () => {
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.repository).toMatchObject({
      url: expect.stringContaining('github.com/toolloop/toolloop'),
    });
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs).toMatchObject({ url: expect.stringMatching(/\/issues$/) });
    expect((manifest.keywords as string[]).length).toBeGreaterThan(0);
    for (const [name, range] of Object.entries(manifest.dependencies)) {
      expect(range, name).toMatch(/^\^\d/);
    }
    expect(manifest.peerDependencies.zod).toBe('^4.2.0');
    expect(manifest.peerDependenciesMeta.zod?.optional).toBe(true);
  });
});
