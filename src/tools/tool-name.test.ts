import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../errors/index.js';
import { assertToolName, isPortableToolName, splitCamelCase } from './tool-name.js';

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
  it('accepts letters, digits, _ . -', () => {
    expect(isPortableToolName('finance_lookup-invoice.v2')).toBe(true);
  });

  it.each(['invalid tool name', 'tool@name!', 'tool()', '获取天气', ''])('flags %j', (name) => {
    expect(isPortableToolName(name)).toBe(false);
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
