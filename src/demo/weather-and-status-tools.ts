import { z } from 'zod';
import { type ToolContext, tool } from '../index.js';

// The tools of the demo scenarios (weather, service status, the caller's account), with fixed data
// so every run shows the same numbers.

const WEATHER: Record<string, object> = {
  Boston: { city: 'Boston', temperatureCelsius: 14.5, conditions: 'Overcast', humidityPercent: 71 },
};

/** `current_weather`: the plain case, a tool and a round trip. */
export class WeatherTools {
  @tool({
    name: 'current_weather',
    description: 'Get the current weather conditions for a named city.',
    inputSchema: z.object({ city: z.string().describe('The city name, e.g. Boston') }),
  })
  currentWeather({ city }: { city: string }) {
    return WEATHER[city] ?? { city, error: 'no data for this city' };
  }
}

const ACTIVE_CONNECTIONS: Record<string, number> = { 'orders-api': 214 };

/** `server_status`: a `returnDirect` tool whose JSON is the answer. */
export class StatusTools {
  constructor(private readonly clock: () => Date = () => new Date()) {}

  @tool({
    name: 'server_status',
    description: 'Get the live status of an internal service.',
    returnDirect: true,
    inputSchema: z.object({
      serviceName: z.string().describe('The service name, e.g. orders-api'),
    }),
  })
  serverStatus({ serviceName }: { serviceName: string }) {
    return {
      service: serviceName,
      status: 'UP',
      activeConnections: ACTIVE_CONNECTIONS[serviceName] ?? 0,
      checkedAt: this.clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    };
  }
}

const ACCOUNTS: Record<string, { tier: string; openTickets: number }> = {
  alice: { tier: 'GOLD', openTickets: 2 },
  bob: { tier: 'SILVER', openTickets: 0 },
};

/**
 * `my_account`: reads the caller's user id from the `ToolContext`, never from the model. Trusting
 * the map outright is fine for a demo; a real server fills it from the authenticated principal.
 */
export class UserContextTools {
  /** The user ids the tool was called for, in order. */
  readonly seenUserIds: string[] = [];

  @tool({
    name: 'my_account',
    description: "Get the current user's own account summary.",
    inputSchema: z.object({}),
  })
  myAccount(_input: Record<string, never>, context: ToolContext) {
    const userId = String(context.context.userId);
    this.seenUserIds.push(userId);
    return ACCOUNTS[userId] ?? { error: 'unknown user' };
  }
}
