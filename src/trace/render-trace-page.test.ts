import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SENTINELS, sampleTurnEvents } from '../observability/__tests__/sample-turn-events.js';
import type { TurnEvent } from '../observability/turn-event.js';
import { renderTracePage, renderTracePageFromRecording } from './render-trace-page.js';
import { TurnEventRecorder } from './turn-event-recorder.js';

function embeddedData(html: string): {
  title: string;
  content: 'shown' | 'not-recorded' | 'hidden';
  events: TurnEvent[];
} {
  const match =
    /<script type="application\/json" id="toolloop-trace-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no embedded data');
  return JSON.parse(match[1]);
}

const hostile = '</script><img src=x onerror="globalThis.pwned=1"><!--';

describe('renderTracePage', () => {
  it('embeds the events as JSON that survives a hostile tool name and result unchanged', () => {
    const events: TurnEvent[] = [
      { type: 'turn-start', turnId: 't', timestamp: 1, mode: 'call' },
      {
        type: 'tool-execution-start',
        turnId: 't',
        timestamp: 2,
        iteration: 1,
        toolCallId: 'c',
        toolName: hostile,
      },
      {
        type: 'tool-result',
        turnId: 't',
        timestamp: 3,
        iteration: 1,
        toolCallId: 'c',
        toolName: hostile,
        outcome: 'ok',
        result: `${hostile}\u2028`,
        isError: false,
        durationMs: 1,
      },
    ];
    const html = renderTracePage(events, { includeContent: true, title: hostile });
    // Two script elements, so exactly two closing tags: the data cannot close its element.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    expect(embeddedData(html).events).toEqual(events);
    expect(embeddedData(html).title).toBe(hostile);
  });

  it('allows only its own inline script through the Content-Security-Policy', () => {
    const html = renderTracePage(sampleTurnEvents());
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(script).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('shows the content a recording carries, and leaves it out when includeContent is false', () => {
    const recorder = new TurnEventRecorder({ recordContent: true });
    for (const event of sampleTurnEvents()) recorder.listener(event);
    const shown = renderTracePage(recorder.events);
    for (const sentinel of Object.values(SENTINELS)) expect(shown).toContain(sentinel);
    expect(embeddedData(shown).content).toBe('shown');

    const hidden = renderTracePage(recorder.events, { includeContent: false });
    for (const sentinel of Object.values(SENTINELS)) expect(hidden).not.toContain(sentinel);
    expect(
      embeddedData(hidden).events.filter((event) => event.type === 'tool-result'),
    ).toHaveLength(2);
    expect(embeddedData(hidden).content).toBe('hidden');
    expect(hidden).toContain('includeContent: false');
  });

  it('says how to record content when the recording has none', () => {
    const recorder = new TurnEventRecorder();
    for (const event of sampleTurnEvents()) recorder.listener(event);
    for (const options of [{}, { includeContent: true }]) {
      const page = renderTracePage(recorder.events, options);
      expect(embeddedData(page).content).toBe('not-recorded');
      expect(page).toContain('recordContent: true');
      expect(page).toContain('--include-content');
    }
  });
});

describe('renderTracePageFromRecording', () => {
  it('reads a recorder file, a JSON array and JSON Lines alike', () => {
    const recorder = new TurnEventRecorder({ recordContent: true });
    for (const event of sampleTurnEvents()) recorder.listener(event);
    const expected = embeddedData(renderTracePage(recorder.events)).events;
    const asArray = JSON.stringify(sampleTurnEvents());
    const asLines = sampleTurnEvents()
      .map((event) => JSON.stringify(event))
      .join('\n');
    for (const text of [recorder.toJSON(), asArray, asLines])
      expect(embeddedData(renderTracePageFromRecording(text)).events).toEqual(expected);
  });

  it('refuses a malformed recording with an error naming the bad entry', () => {
    expect(() => renderTracePageFromRecording('')).toThrow(/empty/);
    expect(() => renderTracePageFromRecording('{"events": 3}')).toThrow(/"events" array/);
    expect(() =>
      renderTracePageFromRecording('[{"type":"nope","turnId":"t","timestamp":1}]'),
    ).toThrow(/Event 1 .* unknown type/);
    expect(() => renderTracePageFromRecording('[{"type":"turn-start","timestamp":1}]')).toThrow(
      /no turnId/,
    );
    expect(() => renderTracePageFromRecording('{"type":"turn-start"}\nnot json')).toThrow(/Line 2/);
    expect(() => renderTracePageFromRecording('{oops')).toThrow(/not valid JSON/);
  });
});

describe('TurnEventRecorder', () => {
  it('records without content by default and stops at maxEvents', () => {
    const recorder = new TurnEventRecorder({ maxEvents: 5 });
    for (const event of sampleTurnEvents()) recorder.listener(event);
    expect(recorder.events).toHaveLength(5);
    expect(recorder.droppedEvents).toBe(sampleTurnEvents().length - 5);
    for (const sentinel of Object.values(SENTINELS))
      expect(recorder.toJSON()).not.toContain(sentinel);
    expect(JSON.parse(recorder.toJSON())).toMatchObject({
      format: 'toolloop-turn-events',
      version: 1,
    });
    recorder.clear();
    expect(recorder.events).toHaveLength(0);
  });
});
