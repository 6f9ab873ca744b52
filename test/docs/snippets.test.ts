// Every TypeScript snippet of README.md and docs/ compiles under the tsconfig the getting-started
// page recommends (strict, as `tsc --init` makes it, with a target Node 20 runs), as a module of
// its own that imports `toolloop` the way an application does. Declarations are checked too, as
// `tsc --init`'s `declaration: true` writes them: a snippet that exports a value whose type
// toolloop does not export fails with TS2742 ("cannot be named without a reference to …"). The
// snippets tagged `ts run` also run offline (scripted model, local servers) and print their
// result. One compiler program checks them all.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentationSnippets, type Snippet } from './markdown-snippets.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Inside the package, so `import … from 'toolloop'` resolves to this package's own exports (the
 * built dist/, as an installed package would) for the compiler and for Node alike.
 */
const workDir = join(root, 'test-artifacts', 'snippets');
/** At most this many snippets may be fragments (neither compiled nor run). */
const MAX_FRAGMENTS = 5;

/** The compiler options of the recommended tsconfig.json (docs/getting-started.md). */
const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  moduleDetection: ts.ModuleDetectionKind.Force,
  skipLibCheck: true,
  declaration: true,
  noEmitOnError: false,
};

const snippets = documentationSnippets(root);
const checked = snippets.filter((snippet) => snippet.mode !== 'fragment');
const runnable = snippets.filter((snippet) => snippet.mode === 'run');

/** A file name for a snippet: its Markdown file and line. */
function fileOf(snippet: Snippet): string {
  return join(workDir, `${snippet.file.replace(/[^a-zA-Z0-9]+/g, '-')}-L${snippet.line}.ts`);
}

let program: ts.Program;
const scratchDirs: string[] = [];

beforeAll(() => {
  // npm test builds first; a targeted run builds only when dist is missing.
  if (!existsSync(join(root, 'dist', 'index.js'))) {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
  }
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  for (const snippet of checked) writeFileSync(fileOf(snippet), snippet.code);
  program = ts.createProgram(checked.map(fileOf), compilerOptions);
  for (const snippet of runnable) {
    const source = program.getSourceFile(fileOf(snippet));
    if (source) program.emit(source);
  }
}, 120_000);

afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

describe('documentation snippets', () => {
  it('are found in the README and the docs, and almost none is a fragment', () => {
    expect(snippets.length).toBeGreaterThan(40);
    expect(runnable.length).toBeGreaterThan(10);
    const fragments = snippets.filter((snippet) => snippet.mode === 'fragment');
    expect(
      fragments.length,
      `fragments: ${fragments.map((s) => `${s.file}:${s.line}`).join(', ')}`,
    ).toBeLessThanOrEqual(MAX_FRAGMENTS);
  });

  it.each(checked.map((snippet) => [`${snippet.file}:${snippet.line}`, snippet] as const))(
    '%s compiles under strict',
    (_name, snippet) => {
      const source = program.getSourceFile(fileOf(snippet));
      expect(source).toBeDefined();
      const diagnostics = [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
        ...program.getDeclarationDiagnostics(source),
      ].map((diagnostic) => {
        const where =
          diagnostic.start === undefined
            ? ''
            : `line ${source!.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `;
        return `${where}TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
      expect(diagnostics).toEqual([]);
    },
  );
});

/** The environment of a snippet run: offline, with no provider key, no debug output. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE)_/.test(name)) continue;
    if (name === 'TOOLLOOP_DEBUG' || name === 'DEBUG' || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  // The approval page has the reader export a signing key first.
  env.APPROVAL_KEY = 'a signing key of at least 32 bytes, as the approval page says';
  return env;
}

/** Runs an emitted snippet with Node in a scratch directory of its own. */
function runSnippet(
  file: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'toolloop-snippet-'));
  scratchDirs.push(cwd);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      cwd,
      env: { ...offlineEnvironment(), ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('runnable documentation snippets', () => {
  it.each(runnable.map((snippet) => [`${snippet.file}:${snippet.line}`, snippet] as const))(
    '%s runs offline and prints its result',
    async (_name, snippet) => {
      const { code, stdout, stderr } = await runSnippet(fileOf(snippet).replace(/\.ts$/, '.js'));
      expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout.trim().length).toBeGreaterThan(0);
    },
    60_000,
  );
});

// The quick starts say that `OPENAI_BASE_URL=http://localhost:11434/v1 npx tsx app.ts` talks to a
// local server without a key. They once chose the real model on OPENAI_API_KEY alone, so that
// command silently played the scripted stand-in instead.
describe('the quick starts with only OPENAI_BASE_URL set', () => {
  const quickStarts = runnable.filter(
    (snippet) =>
      (snippet.file === 'README.md' || snippet.file === join('docs', 'getting-started.md')) &&
      snippet.code.includes('new OpenAiChatModel()'),
  );

  it('are found', () => {
    expect(quickStarts.map((snippet) => snippet.file).sort()).toEqual([
      'README.md',
      join('docs', 'getting-started.md'),
    ]);
  });

  it.each(quickStarts.map((snippet) => [`${snippet.file}:${snippet.line}`, snippet] as const))(
    '%s asks the local server, with no key',
    async (_name, snippet) => {
      const requests: { url: string | undefined; authorization: string | undefined }[] = [];
      const server = createServer((request, response) => {
        requests.push({ url: request.url, authorization: request.headers.authorization });
        request.resume();
        request.on('end', () => {
          response.setHeader('content-type', 'application/json');
          response.end(
            JSON.stringify({
              id: 'chatcmpl-1',
              object: 'chat.completion',
              model: 'llama3.2',
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: 'Answered by the local server.' },
                  finish_reason: 'stop',
                },
              ],
            }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const { code, stdout, stderr } = await runSnippet(fileOf(snippet).replace(/\.ts$/, '.js'), {
          OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
          OPENAI_MODEL: 'llama3.2',
        });
        expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
        expect(stdout.trim()).toBe('Answered by the local server.');
        expect(requests).toEqual([{ url: '/v1/chat/completions', authorization: undefined }]);
      } finally {
        server.close();
      }
    },
    60_000,
  );
});
