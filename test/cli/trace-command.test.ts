import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SENTINELS,
  sampleTurnEvents,
} from '../../src/observability/__tests__/sample-turn-events.js';
import { TurnEventRecorder } from '../../src/trace/index.js';
import { assertCliBuilt, runCli } from './cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'toolloop-trace-'));
beforeAll(() => assertCliBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recording(recordContent: boolean): string {
  const recorder = new TurnEventRecorder({ recordContent });
  for (const event of sampleTurnEvents()) recorder.listener(event);
  const file = join(dir, `turns-${recordContent}.json`);
  writeFileSync(file, recorder.toJSON());
  return file;
}

describe('toolloop trace', () => {
  it('writes the trace page of a recording to a file, content hidden by default', () => {
    const file = recording(true);
    const output = join(dir, 'page.html');
    const run = runCli(['trace', file, '--output', output, '--title', 'Checkout turns']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`trace page written to ${output}`);
    const page = readFileSync(output, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain('Checkout turns');
    expect(page).toContain('lookup_account');
    expect(page).not.toContain(SENTINELS.argument);
  });

  it('prints the page on standard output, with content when asked', () => {
    const run = runCli(['trace', recording(true), '--include-content']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(SENTINELS.argument);
  });

  it('exits 1 for an unreadable or invalid recording, and 2 without a file', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"something-else"}');
    const invalid = runCli(['trace', bad]);
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toContain(bad);
    const missing = runCli(['trace', join(dir, 'absent.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('ENOENT');
    expect(runCli(['trace']).status).toBe(2);
    expect(runCli(['trace', '--help']).stdout).toContain('Usage: toolloop trace <recording>');
  });
});
