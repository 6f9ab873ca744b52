import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidArgumentError,
  InvalidToolInputError,
  ToolDefinitionError,
} from '../errors/index.js';
import { tool } from './tool.js';
import type { ToolContext } from './tool-callback.js';
import { hasToolMethods, toolCallbacksFrom } from './tool-decorator.js';

const NO_ARGUMENTS =
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"required":[],"additionalProperties":false}';

class WeatherTools {
  readonly unit = 'C';

  @tool({ description: 'Current weather for a city', inputSchema: z.object({ city: z.string() }) })
  getCurrentWeather(input: { city: string }) {
    return { city: input.city, temperature: 21, unit: this.unit };
  }

  @tool()
  getServerTime() {
    return '2026-09-23T18:00:00Z';
  }

  @tool({ name: 'weather_alerts', returnDirect: true, sequential: true, timeoutMs: 2000 })
  alerts() {
    return [];
  }

  notATool() {
    return 'plain';
  }
}

/** The seed article's UserContextTools: the user id comes from the caller, never from the model. */
class UserContextTools {
  @tool({ description: "Get the current user's account summary", inputSchema: z.object({}) })
  myAccount(_input: Record<string, never>, context: ToolContext) {
    const userId = context.context.userId;
    return { userId, plan: userId === 'alice' ? 'gold' : 'basic' };
  }
}

describe('@tool on class methods', () => {
  it('names the tool after the method and describes it with the method name split', () => {
    const [weather, time, alerts] = toolCallbacksFrom(new WeatherTools());
    expect(weather?.definition.name).toBe('getCurrentWeather');
    expect(weather?.definition.description).toBe('Current weather for a city');
    expect(time?.definition.name).toBe('getServerTime');
    expect(time?.definition.description).toBe('get server time');
    expect(alerts?.definition.name).toBe('weather_alerts');
    expect(alerts?.definition.description).toBe('alerts');
  });

  it('finds only decorated methods and gives a method without schema the no-argument schema', () => {
    const callbacks = toolCallbacksFrom(new WeatherTools());
    expect(callbacks.map((callback) => callback.definition.name)).toEqual([
      'getCurrentWeather',
      'getServerTime',
      'weather_alerts',
    ]);
    expect(JSON.stringify(callbacks[1]?.definition.inputSchema)).toBe(NO_ARGUMENTS);
  });

  it('calls the method on its instance with the validated input', async () => {
    const [weather] = toolCallbacksFrom(new WeatherTools());
    expect(await weather?.call('{"city":"Lyon"}')).toBe(
      '{"city":"Lyon","temperature":21,"unit":"C"}',
    );
    await expect(weather?.call('{"town":"Lyon"}')).rejects.toBeInstanceOf(InvalidToolInputError);
  });

  it('carries returnDirect, sequential and timeoutMs', () => {
    const alerts = toolCallbacksFrom(new WeatherTools())[2];
    expect(alerts?.metadata).toEqual({ returnDirect: true, sequential: true, timeoutMs: 2000 });
    expect(toolCallbacksFrom(new WeatherTools())[0]?.metadata.returnDirect).toBe(false);
  });

  it('passes the caller context, which never appears in the schema (seed ToolContext scenario)', async () => {
    const [myAccount] = toolCallbacksFrom(new UserContextTools());
    expect(JSON.stringify(myAccount?.definition.inputSchema)).toBe(NO_ARGUMENTS);
    expect(JSON.stringify(myAccount?.definition)).not.toContain('userId');
    expect(await myAccount?.call('{}', { context: { userId: 'alice' } })).toBe(
      '{"userId":"alice","plan":"gold"}',
    );
    expect(await myAccount?.call('', { context: { userId: 'bob' } })).toBe(
      '{"userId":"bob","plan":"basic"}',
    );
  });

  it('rejects a method with parameters and no inputSchema when the class is defined', () => {
    const define = () => {
      class Broken {
        @tool({ description: 'needs input' })
        lookup(input: unknown) {
          return input;
        }
      }
      return Broken;
    };
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(/Method 'lookup' declares parameters, so @tool needs an inputSchema/);
  });

  it('rejects invalid options when the class is defined', () => {
    const define = () => {
      class Broken {
        @tool({ timeoutMs: -1 })
        tick() {
          return 1;
        }
      }
      return Broken;
    };
    expect(define).toThrow("Tool 'tick': timeoutMs must be a positive number of milliseconds");
  });

  it('needs an explicit name on a symbol-named method', () => {
    const key = Symbol('hidden');
    const define = () => {
      class Broken {
        @tool()
        [key]() {
          return 1;
        }
      }
      return Broken;
    };
    expect(define).toThrow('@tool on a method named by a symbol needs an explicit name');
    class Named {
      @tool({ name: 'hidden' })
      [key]() {
        return 'found';
      }
    }
    expect(toolCallbacksFrom(new Named())[0]?.definition.name).toBe('hidden');
  });

  it('fails loudly on an ECMAScript #private method, instance or static', async () => {
    const instanceMethod = () => {
      class Hidden {
        @tool({ description: 'Never reachable' })
        #lookup() {
          return 1;
        }
        use() {
          return this.#lookup();
        }
      }
      return Hidden;
    };
    expect(instanceMethod).toThrow(ToolDefinitionError);
    expect(instanceMethod).toThrow(
      "@tool cannot register the private method '#lookup': a #private method cannot be reached from outside its class. Make it a public method (a TypeScript 'private' modifier works).",
    );
    const staticMethod = () => {
      class Hidden {
        @tool({ name: 'lookup' })
        static #lookup() {
          return 1;
        }
        use() {
          return Hidden.#lookup();
        }
      }
      return Hidden;
    };
    expect(staticMethod).toThrow("@tool cannot register the private method '#lookup'");
    // TypeScript's `private` is only a compile-time check: such a method is found and runs.
    class Soft {
      @tool({ description: 'Soft-private' })
      private lookup() {
        return 'found';
      }
      use() {
        return this.lookup();
      }
    }
    const [soft] = toolCallbacksFrom(new Soft());
    expect(soft?.definition.name).toBe('lookup');
    expect(await soft?.call('{}')).toBe('"found"');
  });

  it('refuses options that are not an object', () => {
    expect(() => tool('getWeather' as never)).toThrow('@tool takes an options object');
  });

  it('refuses anything but a class method', () => {
    const decorator = tool({ name: 'x' }) as unknown as (value: unknown, context: unknown) => void;
    expect(() => decorator(() => 1, { kind: 'field', name: 'x' })).toThrow(
      "@tool cannot decorate 'x', a field: it decorates class methods only",
    );
    expect(() => decorator(() => 1, 'legacyKey')).toThrow(ToolDefinitionError);
  });

  it('includes inherited tools, and an override without @tool hides the decorated method', async () => {
    class Base {
      @tool()
      ping() {
        return 'base ping';
      }

      @tool()
      version() {
        return 1;
      }
    }
    class Derived extends Base {
      @tool()
      override ping() {
        return 'derived ping';
      }

      override version() {
        return 2;
      }

      @tool()
      extra() {
        return 'extra';
      }
    }
    const callbacks = toolCallbacksFrom(new Derived());
    expect(callbacks.map((callback) => callback.definition.name).sort()).toEqual(['extra', 'ping']);
    const ping = callbacks.find((callback) => callback.definition.name === 'ping');
    expect(await ping?.call('{}')).toBe('"derived ping"');
  });

  it('supports static methods through the class itself', async () => {
    class MathTools {
      readonly label = 'math';

      @tool({ inputSchema: z.object({ a: z.number(), b: z.number() }) })
      static add(input: { a: number; b: number }) {
        return input.a + input.b;
      }
    }
    const [add] = toolCallbacksFrom(MathTools);
    expect(await add?.call('{"a":2,"b":3}')).toBe('5');
    expect(hasToolMethods(MathTools)).toBe(true);
    expect(hasToolMethods(new MathTools())).toBe(false);
  });

  it('types the method input from the schema', async () => {
    class Typed {
      // @ts-expect-error the schema produces { city: string }, the method wants { town: number }
      @tool({ inputSchema: z.object({ city: z.string() }) })
      lookup(input: { town: number }) {
        return input.town ?? 'no town';
      }
    }
    expect(await toolCallbacksFrom(new Typed())[0]?.call('{"city":"Oslo"}')).toBe('"no town"');
  });

  it('keeps each instance its own state', async () => {
    class Counter {
      count = 0;

      @tool()
      increment() {
        this.count++;
        return this.count;
      }
    }
    const first = new Counter();
    const second = new Counter();
    await toolCallbacksFrom(first)[0]?.call('{}');
    await toolCallbacksFrom(first)[0]?.call('{}');
    expect(first.count).toBe(2);
    expect(second.count).toBe(0);
  });
});

describe('@tool composed into a project decorator (the reference meta-annotation case)', () => {
  /** A team's own decorator with house defaults, built on @tool. */
  function financeTool(description: string) {
    return tool({ description: `[finance] ${description}`, sequential: true });
  }

  class FinanceTools {
    @financeTool('Look up an invoice')
    lookupInvoice() {
      return { id: 'INV-1001' };
    }
  }

  it('keeps the defaults and the method name', async () => {
    const [lookup] = toolCallbacksFrom(new FinanceTools());
    expect(lookup?.definition.name).toBe('lookupInvoice');
    expect(lookup?.definition.description).toBe('[finance] Look up an invoice');
    expect(lookup?.metadata.sequential).toBe(true);
    expect(await lookup?.call('{}')).toBe('{"id":"INV-1001"}');
  });
});

describe('toolCallbacksFrom', () => {
  it('throws for an object without @tool methods', () => {
    class PlainService {
      run() {
        return 1;
      }
    }
    expect(() => toolCallbacksFrom(new PlainService())).toThrow(
      'No @tool annotated methods found in PlainService. Did you mean to pass a ToolCallback or ToolCallbackProvider?',
    );
    expect(() => toolCallbacksFrom({})).toThrow('No @tool annotated methods found in Object.');
  });

  it('asks for an instance when given a class whose @tool methods are instance methods', () => {
    class WeatherTools {
      @tool({ description: 'Current weather' })
      getWeather() {
        return 'sunny';
      }
    }
    expect(() => toolCallbacksFrom(WeatherTools)).toThrow(
      'WeatherTools is a class, and its @tool methods belong to its instances: pass an instance: new WeatherTools()',
    );
    expect(toolCallbacksFrom(new WeatherTools())).toHaveLength(1);
  });

  // A newcomer who writes `.tools(getWeather)` with a plain function was told only to pass a
  // ToolCallback, without how to make one.
  it('says how to wrap a plain function given in place of a tool', () => {
    function getWeather({ city }: { city: string }) {
      return city;
    }
    expect(() => toolCallbacksFrom(getWeather)).toThrow(
      "No @tool annotated methods found in getWeather. Did you mean to pass a ToolCallback or ToolCallbackProvider? A function is not a tool by itself: wrap it, tool({ name: 'getWeather', description: '…', inputSchema: z.object({ … }), execute: getWeather }).",
    );
    expect(() => toolCallbacksFrom(() => 1)).toThrow(
      /found in an anonymous function\..* wrap it, tool\(\{ name: 'myTool'/,
    );
    class NoTools {}
    expect(() => toolCallbacksFrom(NoTools)).toThrow(
      /^No @tool annotated methods found in NoTools\. Did you mean to pass a ToolCallback or ToolCallbackProvider\?$/,
    );
  });

  it('explains when it is given the decorator of a tool() call without execute', () => {
    const forgotExecute = tool({ name: 'oops' });
    expect(() => toolCallbacksFrom(forgotExecute)).toThrow(
      /tool\(options\) returns when options has no execute/,
    );
  });

  it('throws for duplicate names across the objects, naming each once', () => {
    class A {
      @tool()
      validTool() {
        return 'a';
      }
    }
    class B {
      @tool({ name: 'validTool' })
      other() {
        return 'b';
      }
    }
    expect(() => toolCallbacksFrom(new A(), new B(), new A())).toThrow(
      'Multiple tools with the same name (validTool) found in sources: A, B, A',
    );
  });

  it('rejects null and primitives', () => {
    expect(() => toolCallbacksFrom(null as unknown as object)).toThrow(InvalidArgumentError);
    expect(() => toolCallbacksFrom(3 as unknown as object)).toThrow(InvalidArgumentError);
  });

  it('hasToolMethods tells objects with tools from others', () => {
    expect(hasToolMethods(new WeatherTools())).toBe(true);
    expect(hasToolMethods({ getToolCallbacks: () => [] })).toBe(false);
    expect(hasToolMethods(null)).toBe(false);
    expect(hasToolMethods('WeatherTools')).toBe(false);
  });
});
