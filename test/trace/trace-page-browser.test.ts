import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTurnEvents } from '../../src/observability/__tests__/sample-turn-events.js';
import type { TurnEvent } from '../../src/observability/index.js';
import { renderTracePage } from '../../src/trace/index.js';
import { recordDemoTurns } from './record-demo-turns.js';

/** Debian's chromium (scripts/test.sh installs it); playwright-core never downloads a browser. */
const CHROMIUM = process.env.TOOLLOOP_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI)
  throw new Error(`chromium is missing at ${CHROMIUM}: apt-get install --no-upgrade chromium`);
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');

describe.skipIf(!haveChromium)('the trace page in headless chromium', () => {
  let browser: Browser;
  let workDir = '';

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    workDir = mkdtempSync(join(tmpdir(), 'toolloop-trace-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  /** Writes the page to disk and opens it from there, as a user would (no server). */
  async function open(events: readonly TurnEvent[], name: string, includeContent = false) {
    const file = join(workDir, `${name}.html`);
    writeFileSync(file, renderTracePage(events, { includeContent, title: `Trace: ${name}` }));
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const requests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) requests.push(request.url());
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
    return { page, problems, requests };
  }

  it('shows every model call and tool call of the recorded demo turns, and keeps a screenshot', async () => {
    const events = await recordDemoTurns();
    const { page, problems, requests } = await open(events, 'demo-turns', true);
    const modelCalls = events.filter((event) => event.type === 'model-call-end');
    // Every tool call the model made, with its result's outcome when the loop reported one.
    const toolCalls = new Map<string, { toolCallId: string; toolName: string; outcome?: string }>();
    for (const event of events) {
      if (event.type === 'tool-call')
        toolCalls.set(event.toolCall.id, {
          toolCallId: event.toolCall.id,
          toolName: event.toolCall.name,
          ...toolCalls.get(event.toolCall.id),
        });
      if (event.type === 'tool-result')
        toolCalls.set(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          outcome: event.outcome,
        });
    }
    const toolResults = [...toolCalls.values()];
    const turns = new Set(events.map((event) => event.turnId));
    expect(modelCalls.length).toBeGreaterThan(1);
    expect(toolResults.length).toBeGreaterThan(0);
    expect(await page.locator('section.turn').count()).toBe(turns.size);
    expect(await page.locator('[data-kind="model-call"]').count()).toBe(modelCalls.length);
    expect(await page.locator('[data-kind="tool-call"]').count()).toBe(toolResults.length);
    for (const result of toolResults) {
      const row = page.locator(`[data-kind="tool-call"][data-call-id="${result.toolCallId}"]`);
      await expect(row.locator('.label').textContent()).resolves.toBe(
        `execute_tool ${result.toolName}`,
      );
      await expect(row.locator('.info').textContent()).resolves.toContain(
        result.outcome ?? 'no result recorded',
      );
      // Bars sit on the time axis: inside the track, with a width.
      const bar = await row.locator('.bar').boundingBox();
      const track = await row.locator('.track').boundingBox();
      expect(
        bar && track && bar.x >= track.x - 1 && bar.x + bar.width <= track.x + track.width + 1,
      ).toBe(true);
    }
    const facts = await page.locator('.summary .facts').textContent();
    expect(facts).toContain(`${modelCalls.length} model calls`);
    expect(facts).toContain(`${toolResults.length} tool calls`);
    // Clicking a call shows its details.
    const firstTool = page.locator('[data-kind="tool-call"]').first();
    await firstTool.click();
    await expect(firstTool.locator('.details').isVisible()).resolves.toBe(true);
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'trace-page.png'), fullPage: true });
    expect(existsSync(join(artifacts, 'trace-page.png'))).toBe(true);
    await page.close();
  }, 60_000);

  it('folds streamed argument pieces into their call, and shows a call that was only begun', async () => {
    const events: TurnEvent[] = [
      ...sampleTurnEvents().filter((event) => event.turnId === 'turn-1'),
      ...['{"pa', 'th":'].map(
        (argumentsDelta, piece): TurnEvent => ({
          type: 'tool-call-delta',
          turnId: 'turn-1',
          timestamp: 1_700_000_000_150 + piece,
          iteration: 2,
          toolCallId: 'call-cut-off',
          ...(piece === 0 ? { toolName: 'delete_files' } : {}),
          argumentsDelta,
        }),
      ),
    ];
    const { page, problems } = await open(events, 'deltas', true);
    const weather = page.locator('[data-call-id="call-weather"]');
    await weather.click();
    await expect(weather.locator('.details').textContent()).resolves.toContain(
      'arguments streamed in 3 pieces',
    );
    // One row per call, not per piece.
    expect(await page.locator('[data-kind="tool-call"]').count()).toBe(3);
    const cutOff = page.locator('[data-call-id="call-cut-off"]');
    await expect(cutOff.locator('.label').textContent()).resolves.toBe('execute_tool delete_files');
    await expect(cutOff.locator('.info').textContent()).resolves.toContain('no result recorded');
    const bar = await cutOff.locator('.bar').boundingBox();
    const track = await cutOff.locator('.track').boundingBox();
    expect(bar && track && bar.x >= track.x - 1 && bar.x <= track.x + track.width + 1).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('keeps every bar on its track when measured durations reach past the turn', async () => {
    // A 4 ms turn whose tool reports 6.7 ms (finer than the timestamps), and a call that
    // starts at the very end of the turn and has no result.
    const t = 1_700_000_005_000;
    const events: TurnEvent[] = [
      { type: 'turn-start', turnId: 'edge', timestamp: t, mode: 'call' },
      {
        type: 'tool-result',
        turnId: 'edge',
        timestamp: t + 2,
        iteration: 1,
        toolCallId: 'long',
        toolName: 'slow',
        outcome: 'ok',
        result: '"done"',
        isError: false,
        durationMs: 6.7,
      },
      {
        type: 'tool-execution-start',
        turnId: 'edge',
        timestamp: t + 4,
        iteration: 1,
        toolCallId: 'late',
        toolName: 'late',
      },
    ];
    const { page, problems } = await open(events, 'edge-bars');
    const rows = page.locator('[data-kind="tool-call"]');
    expect(await rows.count()).toBe(2);
    for (const row of await rows.all()) {
      const bar = await row.locator('.bar').boundingBox();
      const track = await row.locator('.track').boundingBox();
      expect(bar && track, 'bar and track are drawn').toBeTruthy();
      expect(bar!.x).toBeGreaterThanOrEqual(track!.x - 1);
      expect(bar!.x + bar!.width).toBeLessThanOrEqual(track!.x + track!.width + 1);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows errors, and runs nothing from a hostile tool name or result', async () => {
    const hostile = '</script><img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
    const events: TurnEvent[] = [
      ...sampleTurnEvents(),
      { type: 'turn-start', turnId: 'evil', timestamp: 1_700_000_002_000, mode: 'call' },
      {
        type: 'tool-execution-start',
        turnId: 'evil',
        timestamp: 1_700_000_002_001,
        iteration: 1,
        toolCallId: 'x',
        toolName: hostile,
      },
      {
        type: 'tool-result',
        turnId: 'evil',
        timestamp: 1_700_000_002_009,
        iteration: 1,
        toolCallId: 'x',
        toolName: hostile,
        outcome: 'ok',
        result: hostile,
        isError: false,
        durationMs: 8,
      },
      {
        type: 'turn-finish',
        turnId: 'evil',
        timestamp: 1_700_000_002_010,
        durationMs: 10,
        finishReason: 'STOP',
        text: hostile,
      },
    ];
    const { page, problems } = await open(events, 'hostile', true);
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    ).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    const row = page.locator('[data-call-id="x"]');
    await expect(row.locator('.label').textContent()).resolves.toBe(`execute_tool ${hostile}`);
    await row.click();
    await expect(row.locator('.details').textContent()).resolves.toContain(`result: ${hostile}`);
    const failed = page.locator('section.turn.failed');
    expect(await failed.count()).toBe(1);
    await expect(failed.locator('.facts').textContent()).resolves.toContain('CHAT_MODEL_FAILED');
    expect(await page.locator('.row.call.error').count()).toBe(2);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
