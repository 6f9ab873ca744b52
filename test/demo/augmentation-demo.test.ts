import { describe, expect, it } from 'vitest';
import { augmentationDemoScript, runAugmentationDemo } from '../../src/demo/augmentation-demo.js';

describe('the augmentation scenario of the demo', () => {
  it('offers the added fields and hands what the model wrote in them to the consumer', async () => {
    const model = augmentationDemoScript();
    const lines: string[] = [];
    const result = await runAugmentationDemo(model, (line) => lines.push(line));
    expect(result.offeredProperties).toEqual(['city', 'innerThought', 'confidence']);
    expect(result.thoughts).toEqual([
      'current_weather (high): The user asks about Boston, so I need its current weather',
    ]);
    expect(result.answer).toBe('It is 14.5 °C and overcast in Boston.');
    // The weather tool answered from its table: it was called with the city alone.
    const toolMessage = model.prompts[1]?.messages.at(-1);
    expect(JSON.stringify(toolMessage)).toContain('Overcast');
    expect(lines).toContain(`answer: ${result.answer}`);
  });
});
