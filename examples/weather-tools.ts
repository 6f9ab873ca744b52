import { z } from 'zod';
import { type ToolResponseMessage, tool } from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

const FORECASTS: Record<string, { temperatureCelsius: number; conditions: string }> = {
  Amsterdam: { temperatureCelsius: 11, conditions: 'Rain' },
  Paris: { temperatureCelsius: 17, conditions: 'Sunny' },
};

/** The examples' tools: one `@tool` method returning the current weather of a city. */
export class WeatherTools {
  @tool({
    name: 'current_weather',
    description: 'Get the current weather conditions for a named city.',
    inputSchema: z.object({ city: z.string().describe('The city name, e.g. Paris') }),
  })
  currentWeather({ city }: { city: string }) {
    return { city, ...(FORECASTS[city] ?? { temperatureCelsius: null, conditions: 'Unknown' }) };
  }
}

/**
 * A scripted model for "What is the weather in Amsterdam and Paris?": it asks for both cities'
 * weather, then answers from the tool results it was sent.
 */
export function scriptedWeatherModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-1', name: 'current_weather', arguments: { city: 'Amsterdam' } },
      { id: 'call-2', name: 'current_weather', arguments: { city: 'Paris' } },
    ]),
    (prompt) => {
      const results = prompt.messages.at(-1) as ToolResponseMessage;
      const parts = results.responses.map((response) => {
        const weather = JSON.parse(response.responseData) as {
          city: string;
          temperatureCelsius: number;
          conditions: string;
        };
        return `${weather.city}: ${weather.temperatureCelsius}°C, ${weather.conditions.toLowerCase()}`;
      });
      return textResponse(`Right now — ${parts.join('; ')}.`);
    },
  ]);
}
