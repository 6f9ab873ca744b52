#!/usr/bin/env node
// The import rules of src/ (run by `npm run lint`): the layers point one way, no module imports
// itself back through others (cycles), `internal/` stays private, and nothing reachable from the
// root entry loads an optional peer. Biome has no rule for layers, so this reads every import with
// the TypeScript compiler (type-only imports included: they are dependencies of the design too).
// Usage: node scripts/check-imports.mjs [srcDir]; exits 1 and names each broken rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'src'));
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
const optionalPeers = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
  (name) => manifest.peerDependenciesMeta[name]?.optional,
);

/**
 * Which top-level folders of src/ each folder may import, besides itself, `errors` and `internal`
 * (which every folder may use). `messages ← model ← tools ← tool-calling`; `advisors` knows only
 * messages, model and the event contract (`observability`, plain data like messages); feature
 * folders provide advisors; `client` sits on top of the library; the subpath folders (providers,
 * stores, MCP, testing, OpenTelemetry, trace) build on it; the applications (config, cli, demo)
 * may use anything. `types` lists folders allowed for type-only imports: a model's options name
 * the tools it is sent. A folder without a rule fails the check, so a new folder is a decision.
 */
const library = ['messages', 'model', 'tools', 'advisors', 'observability'];
const rules = {
  errors: { may: [] },
  messages: { may: [] },
  observability: { may: ['messages', 'model'] },
  model: { may: ['messages'], types: ['tools'] },
  tools: { may: ['messages', 'model'] },
  internal: { may: ['messages', 'model', 'tools'] },
  advisors: { may: ['messages', 'model', 'observability'] },
  approval: { may: library },
  'tool-calling': { may: [...library, 'approval'] },
  memory: { may: ['messages', 'model', 'advisors'], types: ['embeddings'] },
  embeddings: { may: [] },
  'tool-search': { may: [...library, 'tool-calling', 'embeddings', 'memory'] },
  augmentation: { may: ['messages', 'model', 'tools'] },
  client: {
    may: [
      ...library,
      'approval',
      'tool-calling',
      'memory',
      'tool-search',
      'augmentation',
      'embeddings',
    ],
  },
  openai: { may: ['messages', 'model', 'tools'] },
  anthropic: { may: ['messages', 'model', 'tools'] },
  google: { may: ['messages', 'model', 'tools'] },
  testing: { may: ['messages', 'model', 'tools'] },
  otel: { may: ['messages', 'model', 'observability'] },
  trace: { may: ['messages', 'model', 'observability'] },
  durable: { may: ['index.ts', 'advisors', 'approval', 'tools'] },
  mcp: { may: ['index.ts', 'messages', 'model', 'tools'] },
  config: { may: ['*'] },
  cli: { may: ['*'] },
  demo: { may: ['*'] },
  'index.ts': { may: ['*'] },
};

/** The library's modules: no tests, no test helpers (`__tests__`, `tool-search/testing`). */
function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const testHelpers = name === '__tests__' || (name === 'testing' && dir !== root);
      if (!testHelpers) files.push(...sourceFiles(path));
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
  return files;
}

/** Every `import … from` / `export … from` / `import()` of a file, with whether it is type-only. */
function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? (node.importClause?.isTypeOnly ?? false)
        : node.isTypeOnly;
      found.push({
        specifier: node.moduleSpecifier.text,
        typeOnly,
        exported: ts.isExportDeclaration(node),
      });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const folderOf = (file) => relative(root, file).split(sep)[0];
const shown = (file) => join('src', relative(root, file));
const resolveLocal = (from, specifier) => resolve(dirname(from), specifier).replace(/\.js$/, '.ts');

const files = sourceFiles(root);
const graph = new Map();
const problems = [];
const unruled = new Set();
for (const file of files) {
  if (rules[folderOf(file)] === undefined) unruled.add(folderOf(file));
  const edges = [];
  for (const entry of importsOf(file)) {
    if (!entry.specifier.startsWith('.')) {
      const peer = optionalPeers.find(
        (name) => entry.specifier === name || entry.specifier.startsWith(`${name}/`),
      );
      if (peer && !entry.typeOnly && !entry.dynamic) edges.push({ peer, file });
      continue;
    }
    const target = resolveLocal(file, entry.specifier);
    const from = folderOf(file);
    const to = folderOf(target);
    const rule = rules[from];
    if (
      rule !== undefined &&
      from !== to &&
      to !== 'errors' &&
      to !== 'internal' &&
      !rule.may.includes('*')
    ) {
      const allowedHere = rule.may.includes(to) || (entry.typeOnly && rule.types?.includes(to));
      if (!allowedHere) {
        problems.push(
          `${shown(file)} imports '${entry.specifier}': '${from}' may not import '${to}'`,
        );
      }
    }
    if (to === 'internal' && from !== 'internal' && entry.exported && !entry.typeOnly) {
      problems.push(`${shown(file)} re-exports '${entry.specifier}': internal/ exports no values`);
    }
    edges.push({ target, typeOnly: entry.typeOnly, dynamic: entry.dynamic });
  }
  graph.set(file, edges);
}

for (const folder of unruled) {
  problems.push(`src/${folder} has no import rule in scripts/check-imports.mjs: add one`);
}

// Cycles between modules (runtime and type-only imports alike), found by depth-first search.
const state = new Map();
const stack = [];
const reported = new Set();
function walk(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const edge of graph.get(file) ?? []) {
    if (!edge.target || !graph.has(edge.target)) continue;
    if (state.get(edge.target) === 'open') {
      const cycle = stack.slice(stack.indexOf(edge.target)).map(shown);
      const key = [...cycle].sort().join('|');
      if (!reported.has(key)) {
        reported.add(key);
        problems.push(`import cycle: ${[...cycle, shown(edge.target)].join(' → ')}`);
      }
    } else if (!state.has(edge.target)) {
      walk(edge.target);
    }
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) walk(file);

// Nothing the root entry loads (static runtime imports) may import an optional peer.
const entry = join(root, 'index.ts');
if (graph.has(entry)) {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const edge of graph.get(file) ?? []) {
      if (edge.peer) {
        problems.push(
          `${shown(file)} imports the optional peer ${edge.peer} and is reachable from src/index.ts`,
        );
      } else if (edge.target && !edge.typeOnly && !edge.dynamic && !seen.has(edge.target)) {
        seen.add(edge.target);
        queue.push(edge.target);
      }
    }
  }
}

if (problems.length > 0) {
  console.error(
    `Import rules broken (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(
  `Import rules hold for ${files.length} modules in ${relative(process.cwd(), root) || '.'}.`,
);
