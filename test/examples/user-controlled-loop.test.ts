import { describe, expect, it } from 'vitest';
import { runUserControlledLoop } from '../../examples/user-controlled-loop.js';
import { runUserControlledStreaming } from '../../examples/user-controlled-streaming.js';
import { scriptedWeatherModel } from '../../examples/weather-tools.js';
import type { ChatResponse, ToolResponseMessage } from '../../src/index.js';

const EXPECTED_ANSWER = 'Right now — Amsterdam: 11°C, rain; Paris: 17°C, sunny.';

describe('user-controlled tool execution examples', () => {
  it('call: the caller executes the tool round and sends the history back with auto-registration off', async () => {
    const model = scriptedWeatherModel();
    const lines: string[] = [];
    const result = await runUserControlledLoop(model, (line) => lines.push(line));
    expect(result).toEqual({ answer: EXPECTED_ANSWER, toolRounds: 1 });
    expect(model.callCount).toBe(2);
    expect(model.remaining).toBe(0);
    // The second request carries exactly the manager's conversation history.
    const history = model.prompts[1]?.messages ?? [];
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect((history[2] as ToolResponseMessage).responses.map((response) => response.id)).toEqual([
      'call-1',
      'call-2',
    ]);
    expect(lines[0]).toBe(
      'round 1: the model asks for current_weather({"city":"Amsterdam"}), current_weather({"city":"Paris"})',
    );
    expect(lines.at(-1)).toBe(`final answer: ${EXPECTED_ANSWER}`);
  });

  it('stream: every chunk of every round is forwarded as it arrives and the rounds are aggregated', async () => {
    const model = scriptedWeatherModel();
    const forwarded: ChatResponse[] = [];
    const result = await runUserControlledStreaming(model, (chunk) => forwarded.push(chunk));
    expect(result.answer).toBe(EXPECTED_ANSWER);
    expect(result.toolRounds).toBe(1);
    // Round 1 is one chunk with both tool calls; round 2 is the answer in text deltas.
    expect(result.forwardedChunks[0]).toBe(1);
    expect(result.forwardedChunks[1]).toBeGreaterThan(1);
    expect(forwarded).toHaveLength(result.forwardedChunks[0]! + result.forwardedChunks[1]!);
    const text = forwarded.map((chunk) => chunk.results[0]?.output.text ?? '').join('');
    expect(text).toBe(EXPECTED_ANSWER);
    expect(model.callCount).toBe(2);
    expect(model.prompts[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
  });

  it('stream: an aborted signal stops the loop before any model call', async () => {
    const model = scriptedWeatherModel();
    const controller = new AbortController();
    controller.abort();
    await expect(runUserControlledStreaming(model, () => {}, controller.signal)).rejects.toThrow();
    expect(model.callCount).toBe(0);
  });
});
