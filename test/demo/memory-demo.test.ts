import { describe, expect, it } from 'vitest';
import { memoryDemoScript, runMemoryDemo } from '../../src/demo/memory-demo.js';

describe('npm start memory demo (scripted model)', () => {
  it('turn 2, after closing and reopening the SQLite file, is sent all of turn 1', async () => {
    const lines: string[] = [];
    const model = memoryDemoScript();
    const result = await runMemoryDemo(model, (line) => lines.push(line));
    expect(model.remaining).toBe(0);
    expect(result.secondTurnPrompt.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(result.secondTurnPrompt[0]).toEqual({
      role: 'user',
      text: "What's the weather in Boston?",
    });
    expect(result.secondTurnPrompt[2]).toMatchObject({
      role: 'tool',
      responses: [{ id: 'call-boston', name: 'current_weather' }],
    });
    expect(result.storedMessages).toBe(6);
    expect(lines).toContain('-- database closed: process "restarted" --');
    expect(
      lines.some((line) => line.includes('tool      current_weather → {"city":"Boston"')),
    ).toBe(true);
  });
});
