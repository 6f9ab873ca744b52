import type { OfferedTool } from '../model/index.js';
import type { ToolDefinition } from '../tools/tool-callback.js';
import type { CompiledToolSchema, SchemaAdaptation } from './tool-schema-adaptation.js';

/** A tool definition with its schema compiled for one provider. */
export interface CompiledTool {
  definition: ToolDefinition;
  compiled: CompiledToolSchema;
}

/**
 * Compiles each tool definition once per strictness and reports the adaptation the first time a
 * definition is seen, which is when the tool is first registered with a request.
 */
export class ToolSchemaCompilerCache {
  private readonly cache = new WeakMap<ToolDefinition, Map<boolean, CompiledToolSchema>>();
  /**
   * Content keys of the adaptations already reported: sources that rebuild their definitions on
   * every request (MCP listings, augmentation) still get one report per distinct schema.
   */
  private readonly reported = new Set<string>();

  constructor(
    private readonly provider: string,
    private readonly compile: (
      schema: ToolDefinition['inputSchema'],
      options: { strict: boolean },
    ) => CompiledToolSchema,
    private readonly onAdaptation: ((adaptation: SchemaAdaptation) => void) | undefined,
  ) {}

  /** Compiles the tools' schemas and lists the adaptations (all of them, reported or not before). */
  compileAll(
    tools: readonly (OfferedTool | ToolDefinition)[],
    strict: boolean,
  ): { tools: CompiledTool[]; adaptations: SchemaAdaptation[] } {
    const compiledTools: CompiledTool[] = [];
    const adaptations: SchemaAdaptation[] = [];
    for (const tool of tools) {
      const definition = 'definition' in tool ? tool.definition : tool;
      let byStrictness = this.cache.get(definition);
      if (!byStrictness) {
        byStrictness = new Map();
        this.cache.set(definition, byStrictness);
      }
      let compiled = byStrictness.get(strict);
      const adaptation = (value: CompiledToolSchema): SchemaAdaptation => ({
        toolName: definition.name,
        provider: this.provider,
        strict: value.strict,
        changes: value.changes,
      });
      if (!compiled) {
        compiled = this.compile(definition.inputSchema, { strict });
        byStrictness.set(strict, compiled);
        if (compiled.changes.length > 0 && this.onAdaptation) {
          const key = `${strict}\u0000${definition.name}\u0000${JSON.stringify(definition.inputSchema)}`;
          if (!this.reported.has(key)) {
            if (this.reported.size >= 10_000) this.reported.clear();
            this.reported.add(key);
            this.onAdaptation(adaptation(compiled));
          }
        }
      }
      if (compiled.changes.length > 0) adaptations.push(adaptation(compiled));
      compiledTools.push({ definition, compiled });
    }
    return { tools: compiledTools, adaptations };
  }
}
