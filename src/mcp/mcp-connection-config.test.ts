import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../index.js';
import { resolveMcpConnectionConfig } from './mcp-connection-config.js';

describe('resolveMcpConnectionConfig', () => {
  it('infers the transport: command → stdio, url → Streamable HTTP, sse only when asked', () => {
    expect(resolveMcpConnectionConfig('a', { command: 'npx', args: ['-y', 'x'] })).toMatchObject({
      transport: 'stdio',
      args: ['-y', 'x'],
    });
    const http = resolveMcpConnectionConfig('b', {
      url: 'http://127.0.0.1:8080',
      endpoint: '/mcp',
    });
    expect(http.transport).toBe('streamable-http');
    expect(String((http as { url: URL }).url)).toBe('http://127.0.0.1:8080/mcp');
    expect(
      resolveMcpConnectionConfig('c', { transport: 'sse', url: 'http://h/sse' }).transport,
    ).toBe('sse');
  });

  it.each([
    [{}, 'give a command'],
    [{ command: '' }, 'needs a command'],
    [{ command: 'x', args: 'y' }, 'args must be an array'],
    [{ command: 'x', env: { A: 1 } }, 'env must map names to strings'],
    [{ url: 'ftp://h' }, 'must be http or https'],
    [{ url: 'not a url' }, 'is not a valid URL'],
    [{ transport: 'websocket', url: 'http://h' }, 'unknown transport'],
  ])('rejects %j', (config, message) => {
    const resolve = () => resolveMcpConnectionConfig('bad', config as never);
    expect(resolve).toThrow(InvalidArgumentError);
    expect(resolve).toThrow(`MCP connection 'bad'`);
    expect(resolve).toThrow(message);
  });
});
