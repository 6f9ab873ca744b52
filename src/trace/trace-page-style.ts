/** The trace page's stylesheet, inlined into the page. */
export const TRACE_PAGE_STYLE = `
:root { color-scheme: light; --model: #3b6fd8; --tool: #2f9e6e; --error: #d1433f; --muted: #6b7280; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f6f7f9; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 2px; }
.turn-id { font: 12px ui-monospace, monospace; color: var(--muted); margin-left: 8px; font-weight: normal; }
.facts { margin: 0 0 8px; color: var(--muted); }
.note { margin: 0; color: var(--muted); font-style: italic; }
.summary, .turn { background: #fff; border: 1px solid #e3e6ea; border-radius: 8px; padding: 16px; margin-bottom: 16px; }
.turn.failed { border-color: var(--error); }
.answer { margin: 0 0 8px; padding: 8px; background: #f2f5fb; border-radius: 4px; white-space: pre-wrap; }
.error-text { margin: 0 0 8px; color: var(--error); white-space: pre-wrap; }
.round { margin: 10px 0 2px; font-size: 12px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.row { display: grid; grid-template-columns: 220px 1fr; gap: 12px; align-items: center; padding: 3px 0; }
.row.call { cursor: pointer; }
.row.call:hover { background: #f3f4f6; }
.label { font: 12px ui-monospace, monospace; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.track { position: relative; min-height: 20px; font-size: 12px; }
.axis .track { border-bottom: 1px solid #d0d4da; height: 20px; }
.tick { position: absolute; top: 0; transform: translateX(-50%); color: var(--muted); font-size: 11px; white-space: nowrap; }
.tick:first-child { transform: none; }
.tick:last-child { transform: translateX(-100%); }
.bar { position: absolute; top: 3px; height: 14px; border-radius: 3px; background: var(--model); }
.tool .bar { background: var(--tool); }
.error .bar { background: var(--error); }
.error .label { color: var(--error); }
.info { position: absolute; top: 1px; right: 0; color: var(--muted); background: rgba(255,255,255,.85); padding: 0 4px; }
.mark .track { color: #9a6700; }
.details { grid-column: 1 / -1; margin: 4px 0; padding: 8px; background: #f6f8fa; border-radius: 4px; font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
`;
