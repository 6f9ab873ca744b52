import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { mcpConnectionsFromConfig } from './chat-client-from-config.js';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';

const dir = mkdtempSync(join(tmpdir(), 'toolloop-mcp-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function properties(text: string) {
  return loadConfig({
    env: false,
    texts: [{ text, format: 'properties', source: 'app.properties' }],
  });
}

describe('MCP connections in configuration', () => {
  it('a configuration error never echoes the credentials of an MCP URL', async () => {
    const error = await properties(
      [
        'spring.ai.mcp.client.streamable-http.connections.crm.url=ftp://svc:Pa55-w0rd-crm@crm.internal/mcp',
        'spring.ai.mcp.client.sse.connections.legacy.url=not a url https://svc:Pa55-w0rd-sse@x/sse',
      ].join('\n'),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('spring.ai.mcp.client.streamable-http.connections.crm.url');
    expect(message).toContain('ftp://svc:***@crm.internal/mcp');
    expect(message).not.toContain('Pa55-w0rd');
  });

  it('a servers file with an invalid URL does not echo its credentials', async () => {
    const file = join(dir, 'servers.json');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { crm: { url: 'http://svc:Pa55-w0rd-file@[bad/mcp' } } }),
    );
    const config = await properties(`spring.ai.mcp.client.stdio.servers-configuration=${file}`);
    const { McpClient } = await import('../mcp/index.js');
    const connections = mcpConnectionsFromConfig(config);
    const error = (() => {
      try {
        new McpClient('crm', connections.crm as never);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain('http://svc:***@[bad/mcp');
    expect((error as Error).message).not.toContain('Pa55-w0rd');
  });

  it('toolloop.mcp.trusted-servers marks the named connections trusted, and only those', async () => {
    const config = await properties(
      [
        'spring.ai.mcp.client.stdio.connections.files.command=node',
        'spring.ai.mcp.client.streamable-http.connections.crm.url=http://127.0.0.1:9/mcp',
        'toolloop.mcp.trusted-servers=files',
      ].join('\n'),
    );
    const connections = mcpConnectionsFromConfig(config);
    expect(connections.files).toMatchObject({ command: 'node', trusted: true });
    expect(connections.crm?.trusted).toBeUndefined();

    const unknown = await properties(
      'spring.ai.mcp.client.stdio.connections.files.command=node\ntoolloop.mcp.trusted-servers=fils\n',
    );
    expect(() => mcpConnectionsFromConfig(unknown)).toThrow(
      "toolloop.mcp.trusted-servers names 'fils', which is not a configured MCP connection",
    );
  });
});
