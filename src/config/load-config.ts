import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { applyConfigEntries, type FieldOrigins } from './bind-config.js';
import { codeConfigEntries } from './code-config-entries.js';
import type { ConfigEntry } from './config-entry.js';
import { ConfigError, type ConfigProblem } from './config-error.js';
import {
  type ConfigFileFormat,
  configFileEntries,
  configFileFormat,
} from './config-file-entries.js';
import { defaultConfig } from './default-config.js';
import { type ConfigEnvironment, environmentConfigEntries } from './environment-config-entries.js';
import type { ToolloopConfig, ToolloopConfigInput } from './toolloop-config.js';

/** A configuration text that is not read from a file (a test, a secret store, a request). */
export interface ConfigText {
  readonly text: string;
  readonly format: ConfigFileFormat;
  /** Names the text in errors, like a file path. */
  readonly source: string;
}

/** Options of {@link loadConfig}: the layers, lowest first. */
export interface LoadConfigOptions {
  /**
   * Configuration files, applied in order (a later file wins): `.properties`, `.yaml` / `.yml`
   * or `.json`, with Spring AI's keys and toolloop's `toolloop.*` keys. Relative paths are
   * resolved against `cwd`.
   */
  files?: readonly string[];
  /** Texts applied after the files, in order. */
  texts?: readonly ConfigText[];
  /**
   * The environment read after the files (`SPRING_AI_*`, `SPRING_DATASOURCE_*`, `TOOLLOOP_*`);
   * default `process.env`; `false` reads none.
   */
  env?: ConfigEnvironment | false;
  /** Applied last: fields set here win over every file and variable. */
  overrides?: ToolloopConfigInput;
  /** Directory relative file paths are resolved against; default `process.cwd()`. */
  cwd?: string;
}

/**
 * Builds the configuration from its layers: defaults < files < environment < code. Every
 * problem of every layer is gathered and thrown as one {@link ConfigError}: unknown keys under
 * the prefixes toolloop reads, values of the wrong type or out of range, each with its key and
 * its file line, environment variable or code path.
 *
 * ```ts
 * import { chatClientFromConfig, loadConfig } from 'toolloop/config';
 * const config = await loadConfig({ files: ['application.properties'] });
 * const { client, close } = await chatClientFromConfig(config);
 * ```
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ToolloopConfig> {
  const problems: ConfigProblem[] = [];
  const layers: ConfigEntry[][] = [];
  const cwd = options.cwd ?? process.cwd();
  for (const file of options.files ?? []) {
    const format = configFileFormat(file);
    if (format === undefined) {
      problems.push({
        key: '(file)',
        origin: { kind: 'file', file, line: 1 },
        problem: 'unknown file type: use .properties, .yaml, .yml or .json',
      });
      continue;
    }
    let text: string;
    try {
      text = await readFile(resolve(cwd, file), 'utf8');
    } catch (error) {
      problems.push({
        key: '(file)',
        origin: { kind: 'file', file, line: 1 },
        problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      });
      continue;
    }
    const read = configFileEntries(text, format, file);
    problems.push(...read.problems);
    layers.push(read.entries);
  }
  for (const source of options.texts ?? []) {
    const read = configFileEntries(source.text, source.format, source.source);
    problems.push(...read.problems);
    layers.push(read.entries);
  }
  if (options.env !== false) {
    const read = environmentConfigEntries(options.env ?? process.env);
    problems.push(...read.problems);
    layers.push(read.entries);
  }
  if (options.overrides !== undefined) {
    const read = codeConfigEntries(options.overrides);
    problems.push(...read.problems);
    layers.push(read.entries);
  }
  const config = defaultConfig() as unknown as Record<string, unknown>;
  const origins: FieldOrigins = new Map();
  for (const entries of layers) applyConfigEntries(config, entries, problems, origins);
  checkConfig(config as unknown as ToolloopConfig, origins, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config) as unknown as ToolloopConfig;
}

/** Checks that span several fields: connections complete, the chosen memory store reachable. */
function checkConfig(
  config: ToolloopConfig,
  origins: FieldOrigins,
  problems: ConfigProblem[],
): void {
  const firstOrigin = (prefix: string) => {
    for (const [path, set] of origins) if (path.startsWith(prefix)) return set;
    return undefined;
  };
  const need = (prefix: string, what: string, key: string) => {
    const set = firstOrigin(prefix);
    if (set !== undefined) problems.push({ key, origin: set.origin, problem: what });
  };
  for (const [name, connection] of Object.entries(config.mcp.stdio)) {
    if (!connection.command) {
      need(
        `mcp.stdio.${name}.`,
        'a stdio connection needs a command',
        `spring.ai.mcp.client.stdio.connections.${name}.command`,
      );
    }
  }
  for (const [kind, key] of [
    ['streamableHttp', 'streamable-http'],
    ['sse', 'sse'],
  ] as const) {
    for (const [name, connection] of Object.entries(config.mcp[kind])) {
      if (!connection.url) {
        need(
          `mcp.${kind}.${name}.`,
          'the connection needs a url',
          `spring.ai.mcp.client.${key}.connections.${name}.url`,
        );
      }
    }
  }
  const store = config.memory.store;
  const storeOrigin = origins.get('memory.store');
  const missing =
    store === 'sqlite' && !config.memory.sqlite.path
      ? 'the sqlite store needs toolloop.memory.sqlite.path'
      : store === 'redis' && !config.memory.redis.url && !config.memory.redis.host
        ? 'the redis store needs toolloop.memory.redis.url (or spring.ai.chat.memory.redis.host)'
        : store === 'postgres' && !config.memory.postgres.url
          ? 'the postgres store needs toolloop.memory.postgres.url (or spring.datasource.url)'
          : undefined;
  if (missing !== undefined && storeOrigin !== undefined) {
    problems.push({ key: storeOrigin.key, origin: storeOrigin.origin, problem: missing });
  }
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
