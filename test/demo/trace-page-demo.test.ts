import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runTracePageDemo, traceDemoScript } from '../../src/demo/trace-page-demo.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

describe('npm start: the trace page of the demo turns', () => {
  it('writes a self-contained page of both demo turns and prints its path', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'toolloop-trace-demo-'));
    directories.push(directory);
    const lines: string[] = [];
    const model = traceDemoScript();
    const file = await runTracePageDemo(model, (line) => lines.push(line), directory);
    expect(file).toBe(join(directory, 'demo-turns.html'));
    expect(lines.join('\n')).toContain(pathToFileURL(file).href);
    expect(model.callCount).toBe(4);
    expect(model.remaining).toBe(0);
    const html = readFileSync(file, 'utf8');
    const data = JSON.parse(
      /id="toolloop-trace-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}',
    );
    const events = data.events as { type: string; turnId: string; toolCall?: { name: string } }[];
    expect(new Set(events.map((event) => event.turnId)).size).toBe(2);
    expect(events.filter((event) => event.type === 'model-call-end')).toHaveLength(4);
    expect(
      events.filter((event) => event.type === 'tool-call').map((event) => event.toolCall?.name),
    ).toEqual(['current_weather', 'current_weather', 'weekly_forecast']);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
