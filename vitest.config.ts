import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Vite 8's Oxc transform leaves TC39 decorators in place and Node 20 cannot parse them, so files
 * that use a decorator are lowered by the TypeScript compiler first (the same lowering `tsc` does
 * for the published build).
 */
function lowerTc39Decorators(): Plugin {
  return {
    name: 'toolloop:lower-tc39-decorators',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.ts') || !/^\s*@\w+/m.test(code)) return null;
      const output = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          sourceMap: true,
          verbatimModuleSyntax: false,
        },
      });
      return { code: output.outputText, map: output.sourceMapText ?? null };
    },
  };
}

export default defineConfig({
  plugins: [lowerTc39Decorators()],
  // The packages of packages/ import toolloop by name: their tests run against its sources.
  resolve: {
    alias: [
      { find: /^toolloop$/, replacement: fileURLToPath(new URL('src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
