import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runObservability } from '../../examples/observability.js';

describe('Observability', () => {
  it('one turn as OpenTelemetry spans, a debug log and a trace page, with no tool content exported', async () => {
    const lines: string[] = [];
    const observed = await runObservability(undefined, (line) => lines.push(line));
    try {
      expect(observed.answer).toBe('Right now — Amsterdam: 11°C, rain; Paris: 17°C, sunny.');
      const toolSpans = observed.spans.filter((span) =>
        span.startsWith('execute_tool current_weather'),
      );
      const chatSpans = observed.spans.filter((span) => span.startsWith('chat'));
      const turnSpans = observed.spans.filter((span) => span.startsWith('invoke_agent'));
      expect(turnSpans).toHaveLength(1);
      expect(chatSpans).toHaveLength(2);
      expect(toolSpans).toHaveLength(2);
      for (const child of [...chatSpans, ...toolSpans]) expect(child).toContain('← invoke_agent');
      expect(observed.logLines.length).toBeGreaterThan(0);
      expect(observed.logLines.join('\n')).toContain('current_weather');
      // Arguments and results stay out unless content is switched on.
      expect(observed.exported).not.toContain('Amsterdam');
      expect(observed.exported).not.toContain('Rain');
      const page = readFileSync(observed.tracePage, 'utf8');
      expect(page.trimStart().toLowerCase().startsWith('<!doctype html>')).toBe(true);
      expect(page).toContain('current_weather');
      expect(page).not.toContain('Amsterdam');
      expect(lines.at(-1)).toContain(observed.tracePage);
    } finally {
      rmSync(dirname(observed.tracePage), { recursive: true, force: true });
    }
  });
});
