import ts from 'typescript';

/** Compiler options of a user's strict project; a test adds the decorator flags it needs. */
export const STRICT_PROJECT: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};

/**
 * The TypeScript compiler's errors for `source`, type-checked as the file `fileName` (a path in this
 * checkout that need not exist, so relative imports reach the library's sources) under `options`.
 * Each error reads `TS<code>: <message>`, the message chain flattened as an editor shows it.
 */
export function typeErrors(
  fileName: string,
  source: string,
  options: ts.CompilerOptions = {},
): string[] {
  const compilerOptions = { ...STRICT_PROJECT, ...options };
  const host = ts.createCompilerHost(compilerOptions);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === fileName ? source : readFile(file));
  host.fileExists = (file) => file === fileName || ts.sys.fileExists(file);
  host.getSourceFile = (file, language, onError, shouldCreate) =>
    file === fileName
      ? ts.createSourceFile(file, source, language)
      : getSourceFile(file, language, onError, shouldCreate);
  const program = ts.createProgram([fileName], compilerOptions, host);
  const file = program.getSourceFile(fileName);
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map(
    (diagnostic) =>
      `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
  );
}
