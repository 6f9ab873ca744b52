import { createHash } from 'node:crypto';
import { redactTurnEvent } from '../observability/redact-turn-event.js';
import type { TurnEvent } from '../observability/turn-event.js';
import { parseTurnEventRecording } from './parse-turn-event-recording.js';
import { TRACE_PAGE_SCRIPT } from './trace-page-script.js';
import { TRACE_PAGE_STYLE } from './trace-page-style.js';

/** Options of {@link renderTracePage}. */
export interface TracePageOptions {
  /** The page title. Default: "toolloop trace". */
  title?: string;
  /**
   * Whether the page shows tool arguments and results, answer text and error messages. Default:
   * whatever the events carry, so a recording made with `recordContent: true` shows its content;
   * `false` leaves it out (for a page to share when the recording is not). A recording made
   * without content has none to show either way, and the page says how to record it.
   */
  includeContent?: boolean;
}

/** What the page says about content: shown, never recorded, or recorded but left out. */
type ContentState = 'shown' | 'not-recorded' | 'hidden';

const SCRIPT_HASH = createHash('sha256').update(TRACE_PAGE_SCRIPT).digest('base64');

/** Escapes text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * JSON that is safe inside a script element: `<`, `>` and `&` become `\u` escapes (no
 * `</script>` or `<!--` can end or bend the element), as do U+2028/U+2029.
 */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** True when redacting the event would remove something: it was recorded with its content. */
function carriesContent(event: TurnEvent): boolean {
  const redacted = redactTurnEvent(event);
  return (
    redacted === undefined ||
    (redacted !== event && JSON.stringify(redacted) !== JSON.stringify(event))
  );
}

/**
 * Renders recorded turn events (one turn or a whole conversation) as one self-contained HTML
 * page: per turn, its rounds with the model calls and tool calls on a time axis, durations,
 * tokens, outcomes and errors; click a call for its details. Open it from disk: no server, no
 * external asset. The events are embedded as JSON and drawn by an inline script that only ever
 * sets text, and a Content-Security-Policy allows that one script and nothing else.
 */
export function renderTracePage(
  events: readonly TurnEvent[],
  options: TracePageOptions = {},
): string {
  const title = options.title ?? 'toolloop trace';
  const recorded = events.some(carriesContent);
  const content: ContentState = !recorded
    ? 'not-recorded'
    : options.includeContent === false
      ? 'hidden'
      : 'shown';
  const shown =
    content === 'hidden' ? events.flatMap((event) => redactTurnEvent(event) ?? []) : events;
  const data = jsonForScript({ title, content, events: shown });
  const policy = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="toolloop">
<title>${escapeHtml(title)}</title>
<style>${TRACE_PAGE_STYLE}</style>
</head>
<body>
<main id="trace"></main>
<noscript>This trace page draws its timeline with JavaScript; the events are in the page source.</noscript>
<script type="application/json" id="toolloop-trace-data">${data}</script>
<script>${TRACE_PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * {@link renderTracePage} for a recording file's text (what `TurnEventRecorder.toJSON()` wrote, a
 * JSON array of events, or JSON Lines). Throws an `InvalidArgumentError` for a malformed recording.
 */
export function renderTracePageFromRecording(text: string, options: TracePageOptions = {}): string {
  return renderTracePage(parseTurnEventRecording(text), options);
}
