import { describe, expect, it } from 'vitest';
import { runConfiguration, scriptedConfigurationModel } from '../../examples/configuration.js';
import { runExtendingTheLoop, scriptedBudgetModel } from '../../examples/extending-the-loop.js';
import { runToolSearch, scriptedToolSearchModel, toolLibrary } from '../../examples/tool-search.js';
import type { ToolResponseMessage } from '../../src/index.js';

const quiet = () => {};

describe('Configuration', () => {
  it('layers the properties file, the environment and code, and the client obeys the limits', async () => {
    const model = scriptedConfigurationModel();
    const { config, answer } = await runConfiguration(model, quiet);
    expect(config.tools.limits).toMatchObject({
      maxCallsPerToolDefault: 2, // file
      maxTotalToolCalls: 20, // environment over file
      onLimitExceeded: 'RETURN_ERROR_RESPONSE',
    });
    expect(config.tools.maxConcurrency).toBe(4); // code
    const results = model.prompts[1]?.messages.at(-1) as ToolResponseMessage;
    expect(results.responses.map((response) => Boolean(response.isError))).toEqual([
      false,
      false,
      true,
    ]);
    expect(answer).toBe('I got 2 forecasts; 1 call was over the limit.');
  });
});

describe('Scaling to Hundreds of Tools', () => {
  it('offers only the search tool first, then only the tool it found', async () => {
    const model = scriptedToolSearchModel();
    const { answer, offered } = await runToolSearch(model, quiet);
    expect(toolLibrary()).toHaveLength(12);
    expect(offered[0]).toEqual(['toolSearchTool']);
    expect(offered[1]).toContain('finance_lookup_invoice');
    expect(offered[1]).not.toContain('hr_vacation_balance');
    expect(offered[1]?.length).toBeLessThan(12);
    expect(answer).toBe('Invoice INV-7 over 1250 was paid.');
  });
});

describe('Extending the Loop', () => {
  it('runs the custom advisor’s hooks around every round, and its budget stops a turn', async () => {
    const { answer, overBudget, lines } = await runExtendingTheLoop(
      scriptedBudgetModel(),
      scriptedBudgetModel(),
      quiet,
    );
    expect(answer).toBe('Paris is sunny, Amsterdam rainy.');
    expect(lines.slice(0, 8)).toEqual([
      'turn starts (budget 3 model calls)',
      'model call 1',
      '  asked for: current_weather',
      'model call 2',
      '  asked for: current_weather',
      'model call 3',
      '  asked for: nothing (answer)',
      'turn ends after 3 model calls',
    ]);
    expect(overBudget).toBe('model call budget of 2 spent');
  });
});
