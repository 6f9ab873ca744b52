// Configuration: the properties of Spring AI's tool-calling guide (tool errors, call limits, tool
// resolution) in an application.properties file, overridden by the environment and by code
// (defaults < file < environment < code), and a ready client built from the result.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/configuration.js
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chatClientFromConfig, loadConfig, type ToolloopConfig } from '../src/config/index.js';
import type { ChatModel, ToolResponseMessage } from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { WeatherTools } from './weather-tools.js';

/** A Spring AI application's file, used as it is (keys toolloop does not read are ignored). */
export const APPLICATION_PROPERTIES = `# application.properties
spring.application.name=weather-assistant
spring.ai.tools.throw-exception-on-error=false
spring.ai.tools.limits.max-calls-per-tool-default=2
spring.ai.tools.limits.max-total-tool-calls=10
spring.ai.tools.limits.on-limit-exceeded=RETURN_ERROR_RESPONSE
spring.ai.tools.resolution.fallback.enabled=false
`;

/** Stands in for a real model that asks for three cities at once (one more than the limit). */
export function scriptedConfigurationModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse(
      ['Paris', 'Amsterdam', 'Rome'].map((city) => ({
        name: 'current_weather',
        arguments: { city },
      })),
    ),
    (prompt) => {
      const results = prompt.messages.at(-1) as ToolResponseMessage;
      const refused = results.responses.filter((response) => response.isError).length;
      return textResponse(
        `I got ${results.responses.length - refused} forecasts; ${refused} call was over the limit.`,
      );
    },
  ]);
}

/** What the run showed. */
export interface ConfigurationResult {
  config: ToolloopConfig;
  answer: string | null;
}

export async function runConfiguration(
  chatModel: ChatModel = scriptedConfigurationModel(),
  log: (line: string) => void = console.log,
): Promise<ConfigurationResult> {
  const dir = mkdtempSync(join(tmpdir(), 'toolloop-configuration-'));
  try {
    const file = join(dir, 'application.properties');
    writeFileSync(file, APPLICATION_PROPERTIES);
    const config = await loadConfig({
      files: [file],
      // Usually process.env; relaxed binding: SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS.
      env: { SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS: '20' },
      // Code wins over both.
      overrides: { tools: { maxConcurrency: 4 } },
    });
    log(`limits: ${JSON.stringify(config.tools.limits)}`);
    log(`max concurrency: ${config.tools.maxConcurrency}`);
    const { client, close } = await chatClientFromConfig(config, {
      chatModel,
      tools: [new WeatherTools()],
    });
    try {
      const answer = await client.prompt('Weather in Paris, Amsterdam and Rome?').call().content();
      log(`answer: ${answer}`);
      return { config, answer };
    } finally {
      await close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runConfiguration();
}
