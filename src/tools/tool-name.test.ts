import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../errors/index.js';
import { tool } from './tool.js';
import {
  assertPortableToolName,
  assertToolName,
  isPortableToolName,
  splitCamelCase,
} from './tool-name.js';

describe('splitCamelCase', () => {
  it.each([
    ['getCurrentWeather', 'get current weather'],
    ['currentWeather', 'current weather'],
    ['simpleMethod', 'simple method'],
    ['getHTTPResponse', 'get http response'],
    ['URLParser', 'url parser'],
    ['lookup', 'lookup'],
    ['get_current_weather', 'get_current_weather'],
    ['finance.lookupInvoice', 'finance.lookup invoice'],
  ])('%s → %s', (name, words) => {
    expect(splitCamelCase(name)).toBe(words);
  });
});

describe('isPortableToolName', () => {
  it('accepts what OpenAI and Anthropic accept: ASCII letters, digits, _ and -, up to 64', () => {
    expect(isPortableToolName('finance_lookup-invoice2')).toBe(true);
    expect(isPortableToolName('a'.repeat(64))).toBe(true);
  });

  it.each([
    'invalid tool name',
    'tool@name!',
    'tool()',
    '获取天气',
    '',
    'finance.lookup',
    'a'.repeat(65),
  ])('flags %j', (name) => {
    expect(isPortableToolName(name)).toBe(false);
  });
});

describe('assertPortableToolName', () => {
  it('names the rule, the offending characters, a rename and the escape hatch', () => {
    expect(() => assertPortableToolName('finance.lookup invoice')).toThrow(
      `Tool name 'finance.lookup invoice' would be rejected by OpenAI and Anthropic, which accept only ^[a-zA-Z0-9_-]{1,64}$: it contains ".", " ". Rename the tool (e.g. 'finance_lookup_invoice'), or pass allowNonPortableName: true`,
    );
  });

  it('names the length when the characters are fine', () => {
    expect(() => assertPortableToolName('a'.repeat(70))).toThrow(
      'it is 70 characters long (at most 64)',
    );
  });
});

describe('a tool name a provider will reject fails where the tool is defined', () => {
  it('tool() throws a ToolDefinitionError', () => {
    expect(() => tool({ name: 'get weather', execute: () => 'sunny' })).toThrow(
      ToolDefinitionError,
    );
    expect(() => tool({ name: 'get weather', execute: () => 'sunny' })).toThrow('it contains " "');
  });

  it('@tool throws when the class is defined, also for a method-derived name', () => {
    expect(() => {
      class Tools {
        @tool({ name: 'weather.current' })
        current() {
          return 'sunny';
        }
      }
      return Tools;
    }).toThrow('it contains "."');
    expect(() => {
      class Tools {
        @tool()
        天气() {
          return 'sunny';
        }
      }
      return Tools;
    }).toThrow(ToolDefinitionError);
  });

  it('allowNonPortableName: true keeps the name for providers that accept it', async () => {
    const dotted = tool({
      name: 'weather.current',
      allowNonPortableName: true,
      execute: () => 'sunny',
    });
    expect(dotted.definition.name).toBe('weather.current');
    expect(await dotted.call('{}')).toBe('"sunny"');
    expect(() =>
      tool({ name: 'x', allowNonPortableName: 'yes' as never, execute: () => 1 }),
    ).toThrow('allowNonPortableName must be a boolean');
  });
});

describe('assertToolName', () => {
  it('keeps names that are not portable, as the reference does', () => {
    expect(assertToolName('获取天气')).toBe('获取天气');
    expect(assertToolName('tool()')).toBe('tool()');
  });

  it.each(['', '   ', undefined, 42])('rejects %j', (name) => {
    expect(() => assertToolName(name)).toThrow(ToolDefinitionError);
    expect(() => assertToolName(name)).toThrow('Tool name cannot be null or empty');
  });
});
