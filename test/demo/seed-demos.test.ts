import { describe, expect, it } from 'vitest';
import {
  plainRoundTripScript,
  runPlainRoundTripDemo,
} from '../../src/demo/plain-round-trip-demo.js';
import { returnDirectScript, runReturnDirectDemo } from '../../src/demo/return-direct-demo.js';
import { runToolContextDemo, toolContextScript } from '../../src/demo/tool-context-demo.js';

function logger() {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
}

describe('npm start demo scenarios (scripted model)', () => {
  it('plain round trip: 2 model calls, the tool response sent back, the final answer', async () => {
    const { lines, log } = logger();
    const model = plainRoundTripScript();
    const result = await runPlainRoundTripDemo(model, log);
    expect(result.modelCalls).toBe(2);
    expect(result.toolResponses).toEqual([
      {
        id: 'call-1',
        name: 'current_weather',
        responseData:
          '{"city":"Boston","temperatureCelsius":14.5,"conditions":"Overcast","humidityPercent":71}',
      },
    ]);
    expect(result.answer).toBe("It's 14.5C and overcast in Boston right now, with 71% humidity.");
    expect(lines).toContain('model call count: 2');
    expect(lines).toContain(
      'tool response: ToolResponse[id=call-1, name=current_weather, responseData={"city":"Boston","temperatureCelsius":14.5,"conditions":"Overcast","humidityPercent":71}]',
    );
    expect(model.remaining).toBe(0);
  });

  it('returnDirect: 1 model call and the raw JSON as content', async () => {
    const { lines, log } = logger();
    const result = await runReturnDirectDemo(returnDirectScript(), log);
    expect(result).toEqual({
      modelCalls: 1,
      content:
        '{"service":"orders-api","status":"UP","activeConnections":214,"checkedAt":"2026-09-23T18:00:00Z"}',
    });
    expect(lines).toContain('model call count: 1');
  });

  it('ToolContext: the schema has no context property and the tool receives userId alice', async () => {
    const { lines, log } = logger();
    const result = await runToolContextDemo(toolContextScript(), log);
    expect(result.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(result.seenUserIds).toEqual(['alice']);
    expect(result.answer).toBe('Your account tier is GOLD.');
    expect(lines.join('\n')).toContain('"properties": {},');
  });
});
