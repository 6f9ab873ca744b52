// A project compiled with `exactOptionalPropertyTypes` (which `tsc --init` turns on) can pass a
// value that may be undefined, such as `process.env.APPROVAL_KEY`, to toolloop's optional
// options: undefined means "not given", as it does at run time. The module below is compiled
// against the built declarations, the way an application imports `toolloop`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './packed-package.js';

const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  strict: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  noEmit: true,
};

/** Type-checks `code` as a module of an application beside the package; returns the diagnostics. */
function diagnosticsOf(code: string): string[] {
  // Inside the package, so `toolloop` resolves to its own exports (dist/), as when installed.
  const file = join(projectRoot, 'test-artifacts', 'exact-optional', 'app.ts');
  const host = ts.createCompilerHost(compilerOptions);
  const read = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.readFile = (name) => (name === file ? code : read(name));
  host.getSourceFile = (name, version, onError, create) =>
    name === file
      ? ts.createSourceFile(name, code, version, true)
      : getSourceFile(name, version, onError, create);
  const program = ts.createProgram([file], compilerOptions, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('options under exactOptionalPropertyTypes', () => {
  it('approval options take undefined for every optional field', () => {
    expect(existsSync(join(projectRoot, 'dist', 'index.d.ts')), 'npm run build').toBe(true);
    const diagnostics = diagnosticsOf(`
      import { ChatClient, type ToolApprovalOptions } from 'toolloop';
      import { ScriptedChatModel } from 'toolloop/testing';

      declare const settings: {
        signingKey?: string;
        stateTtlMs?: number;
        principal?: (toolContext: Readonly<Record<string, unknown>>) => string | undefined;
      };
      const approval: ToolApprovalOptions = {
        policy: undefined,
        signingKey: process.env.APPROVAL_KEY,
        stateTtlMs: settings.stateTtlMs,
        principal: settings.principal,
        tokenStore: undefined,
      };
      export const client = ChatClient.create(new ScriptedChatModel([]), {
        approval: { signingKey: settings.signingKey },
      });
      export { approval };
    `);
    expect(diagnostics).toEqual([]);
  });
});
