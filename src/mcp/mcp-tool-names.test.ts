import { describe, expect, it } from 'vitest';
import { alternativeToolName, sanitizeToolName, serverPrefixedToolName } from './mcp-tool-names.js';

describe('MCP tool names', () => {
  it('keeps valid names and replaces every other character with _', () => {
    expect(sanitizeToolName('get-sum_2')).toBe('get-sum_2');
    expect(sanitizeToolName('read file.v2/☃')).toBe('read_file_v2__');
    expect(sanitizeToolName('')).toBe('tool');
    expect(sanitizeToolName('a\u0000b\nc')).toBe('a_b_c');
  });

  it('shortens long names to 64 characters with a hash, so two long names stay apart', () => {
    const one = sanitizeToolName(`${'x'.repeat(300)}1`);
    const two = sanitizeToolName(`${'x'.repeat(300)}2`);
    expect(one).toHaveLength(64);
    expect(one).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(one).not.toBe(two);
  });

  it('prefixes with the server name, and finds the first free alt_<n>_ name', () => {
    expect(serverPrefixedToolName('my server', 'echo')).toBe('my_server_echo');
    expect(alternativeToolName('echo', new Set(['echo', 'alt_1_echo']))).toBe('alt_2_echo');
  });
});
