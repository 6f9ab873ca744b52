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
  it('writes the trace page of a recording to a file, with the content the recording carries', () => {
    const file = recording(true);
    const output = join(dir, 'page.html');
    const run = runCli(['trace', file, '--output', output, '--title', 'Checkout turns']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`trace page written to ${output}`);
    const page = readFileSync(output, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain('Checkout turns');
    expect(page).toContain('lookup_account');
    expect(page).toContain(SENTINELS.argument);
  });

  it('prints the page on standard output, without content when told to redact', () => {
    const run = runCli(['trace', recording(true), '--redact']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('lookup_account');
    expect(run.stdout).not.toContain(SENTINELS.argument);
    expect(run.stdout).toContain('--redact');
  });

  it('says, for a recording without content, how to record it', () => {
    const run = runCli(['trace', recording(false)]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(SENTINELS.argument);
    expect(run.stdout).toContain('--include-content');
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
