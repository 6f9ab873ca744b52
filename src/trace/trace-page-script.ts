/**
 * The trace page's script, inlined into the page. It reads the embedded events and builds the
 * page with `textContent` only (never HTML from data), so names and results are shown, not run.
 * Plain ES2017 in a string: it runs in the browser, not in Node. It must never contain a closing
 * script tag.
 */
export const TRACE_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('toolloop-trace-data').textContent);
  var root = document.getElementById('trace');

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function ms(value) {
    if (value === null || value === undefined || !isFinite(value)) return '?';
    return value < 1000 ? Math.round(value) + ' ms' : (value / 1000).toFixed(2) + ' s';
  }
  function tokens(usage) {
    return usage ? usage.promptTokens + ' in / ' + usage.completionTokens + ' out tokens' : '';
  }

  // A tool call gets its row from its first event: the model's call, its start or its result.
  function toolCall(turn, id, name, iteration) {
    var call = turn.tools[id];
    if (!call) {
      call = turn.tools[id] = { kind: 'tool', id: id, name: name, iteration: iteration };
      turn.calls.push(call);
    }
    return call;
  }

  var turns = [];
  var byId = {};
  data.events.forEach(function (e) {
    var turn = byId[e.turnId];
    if (!turn) {
      turn = byId[e.turnId] = { id: e.turnId, start: e.timestamp, end: e.timestamp, calls: [], models: {}, tools: {}, marks: [] };
      turns.push(turn);
    }
    turn.start = Math.min(turn.start, e.timestamp);
    turn.end = Math.max(turn.end, e.timestamp);
    var call;
    switch (e.type) {
      case 'turn-start':
        turn.mode = e.mode;
        turn.conversationId = e.conversationId;
        break;
      case 'model-call-start':
        call = { kind: 'model', iteration: e.iteration, name: 'chat' + (e.model ? ' ' + e.model : ''), start: e.timestamp, offered: e.toolNames || [] };
        turn.models[e.iteration] = call;
        turn.calls.push(call);
        break;
      case 'model-call-end':
        call = turn.models[e.iteration];
        if (!call) {
          call = { kind: 'model', iteration: e.iteration, name: 'chat' + (e.model ? ' ' + e.model : ''), start: e.timestamp - e.durationMs, offered: [] };
          turn.calls.push(call);
        }
        call.end = e.timestamp;
        call.duration = e.durationMs;
        call.responseModel = e.model;
        call.usage = e.usage;
        call.finishReason = e.finishReason;
        call.error = e.error;
        break;
      case 'tool-call-delta':
        // Streamed argument pieces fold into their call's row: a count and when writing began.
        call = turn.tools[e.toolCallId] || toolCall(turn, e.toolCallId, e.toolName || '(unnamed)', e.iteration);
        call.pieces = (call.pieces || 0) + 1;
        if (call.written === undefined) call.written = e.timestamp;
        break;
      case 'tool-call':
        call = toolCall(turn, e.toolCall.id, e.toolCall.name, e.iteration);
        call.name = e.toolCall.name;
        call.args = e.toolCall.arguments;
        if (call.start === undefined) call.start = e.timestamp;
        break;
      case 'tool-execution-start':
        toolCall(turn, e.toolCallId, e.toolName, e.iteration).start = e.timestamp;
        break;
      case 'tool-progress':
        call = turn.tools[e.toolCallId];
        if (call) call.progress = (call.progress || 0) + 1;
        break;
      case 'tool-result':
        call = toolCall(turn, e.toolCallId, e.toolName, e.iteration);
        if (call.start === undefined || e.durationMs > 0) call.start = e.timestamp - e.durationMs;
        call.end = e.timestamp;
        call.duration = e.durationMs;
        call.outcome = e.outcome;
        call.result = e.result;
        call.errorType = e.errorType;
        call.parts = e.parts;
        break;
      case 'limit-exceeded':
        turn.marks.push({ at: e.timestamp, text: 'Limit reached: ' + (e.scope === 'total' ? 'total tool calls' : 'calls of ' + e.toolName) + ' (' + e.limit + ')' });
        break;
      case 'iteration-cap':
        turn.marks.push({ at: e.timestamp, text: 'Iteration cap reached (' + e.maxIterations + ' model calls)' });
        break;
      case 'tool-search-fallback':
        turn.marks.push({ at: e.timestamp, text: 'Tool search without ' + e.source + ' (' + (e.phase === 'index' ? 'indexing' : 'search') + ': ' + e.reason + ')' });
        break;
      case 'approval-pending':
        turn.marks.push({ at: e.timestamp, text: 'Waiting for approval: ' + e.toolCalls.map(function (c) { return c.name; }).join(', ') });
        break;
      case 'turn-finish':
        turn.finish = e;
        break;
      case 'turn-error':
        turn.error = e.error;
        break;
    }
  });

  var totals = { model: 0, tool: 0, input: 0, output: 0, errors: 0 };
  turns.forEach(function (turn) {
    turn.calls.forEach(function (call) {
      // A call the model only began to write (cut off) sits where its writing began.
      if (call.start === undefined) call.start = call.written;
      totals[call.kind]++;
      if (call.usage) { totals.input += call.usage.promptTokens; totals.output += call.usage.completionTokens; }
      if (call.error || (call.outcome && call.outcome !== 'ok')) totals.errors++;
    });
    if (turn.error) totals.errors++;
  });

  var summary = el('section', 'summary');
  summary.appendChild(el('h1', null, data.title));
  var facts = el('p', 'facts');
  facts.textContent = turns.length + (turns.length === 1 ? ' turn · ' : ' turns · ') + totals.model + ' model calls · ' + totals.tool + ' tool calls · ' + totals.input + ' in / ' + totals.output + ' out tokens · ' + totals.errors + ' errors';
  summary.appendChild(facts);
  if (data.content === 'not-recorded') summary.appendChild(el('p', 'note', 'Tool arguments, results and answers were not recorded. To record them: new TurnEventRecorder({ recordContent: true }), toolloop chat --record <file> --include-content, or the config key spring.ai.tools.observations.include-content=true.'));
  if (data.content === 'hidden') summary.appendChild(el('p', 'note', 'Tool arguments, results and answers were recorded but are left out of this page (includeContent: false, or toolloop trace --redact).'));
  root.appendChild(summary);

  function details(call) {
    var lines = [];
    if (call.kind === 'model') {
      lines.push('iteration ' + call.iteration);
      if (call.responseModel) lines.push('response model: ' + call.responseModel);
      if (call.offered.length) lines.push('tools offered: ' + call.offered.join(', '));
      if (call.finishReason) lines.push('finish reason: ' + call.finishReason);
      if (call.usage) lines.push(tokens(call.usage));
      if (call.error) lines.push('error: ' + call.error.type + (call.error.message ? ': ' + call.error.message : ''));
    } else {
      lines.push('call id: ' + call.id);
      lines.push('outcome: ' + (call.outcome || 'no result recorded') + (call.errorType ? ' (' + call.errorType + ')' : ''));
      if (call.pieces) lines.push('arguments streamed in ' + call.pieces + (call.pieces === 1 ? ' piece' : ' pieces'));
      if (call.progress) lines.push('progress updates: ' + call.progress);
      var missing = data.content === 'hidden' ? '(left out of this page)' : '(not recorded)';
      lines.push('arguments: ' + (call.args ? call.args : missing));
      lines.push('result: ' + (call.result ? call.result : missing));
      if (call.parts) {
        lines.push('parts: ' + call.parts.map(function (p) {
          return p.type + (p.mediaType ? ' ' + p.mediaType : '') + (p.source === 'url' ? ' (url)' : ' (' + p.bytes + ' bytes)');
        }).join(', '));
      }
    }
    return lines.join('\n');
  }

  turns.forEach(function (turn, index) {
    var span = Math.max(turn.end - turn.start, 1);
    var section = el('section', 'turn' + (turn.error ? ' failed' : ''));
    section.setAttribute('data-turn-id', turn.id);
    var heading = el('h2', null, 'Turn ' + (index + 1));
    heading.appendChild(el('span', 'turn-id', turn.id));
    section.appendChild(heading);
    var about = [turn.mode || '', ms(turn.end - turn.start)];
    if (turn.conversationId) about.push('conversation ' + turn.conversationId);
    if (turn.finish) {
      if (turn.finish.usage) about.push(tokens(turn.finish.usage));
      about.push('finished: ' + (turn.finish.finishReason || 'no reason'));
    }
    if (turn.error) about.push('failed: ' + turn.error.type + (turn.error.code ? ' ' + turn.error.code : ''));
    section.appendChild(el('p', 'facts', about.filter(Boolean).join(' · ')));
    if (turn.finish && turn.finish.text) section.appendChild(el('p', 'answer', turn.finish.text));
    if (turn.error && turn.error.message) section.appendChild(el('p', 'error-text', turn.error.message));

    var axis = el('div', 'row axis');
    axis.appendChild(el('div', 'label', 'time'));
    var axisTrack = el('div', 'track');
    for (var tick = 0; tick <= 4; tick++) {
      var mark = el('span', 'tick', ms((span * tick) / 4));
      mark.style.left = tick * 25 + '%';
      axisTrack.appendChild(mark);
    }
    axis.appendChild(axisTrack);
    section.appendChild(axis);

    var calls = turn.calls.slice().sort(function (a, b) {
      return a.iteration - b.iteration || (a.kind === b.kind ? a.start - b.start : a.kind === 'model' ? -1 : 1);
    });
    var round = 0;
    calls.forEach(function (call) {
      if (call.iteration !== round) {
        round = call.iteration;
        section.appendChild(el('div', 'round', 'Round ' + round));
      }
      var failed = call.error || (call.outcome && call.outcome !== 'ok');
      var row = el('div', 'row call ' + call.kind + (failed ? ' error' : ''));
      row.setAttribute('data-kind', call.kind === 'model' ? 'model-call' : 'tool-call');
      if (call.id) row.setAttribute('data-call-id', call.id);
      row.setAttribute('data-iteration', String(call.iteration));
      row.appendChild(el('div', 'label', call.kind === 'model' ? call.name : 'execute_tool ' + call.name));
      var track = el('div', 'track');
      var end = call.end === undefined ? call.start : call.end;
      var bar = el('div', 'bar');
      // Durations are measured finer than the millisecond timestamps, so a bar computed from
      // them can reach past either end of its turn: keep it, and its minimum width, on the track.
      var left = Math.min(Math.max(((call.start - turn.start) / span) * 100, 0), 99.6);
      bar.style.left = left + '%';
      bar.style.width = Math.min(Math.max(((end - call.start) / span) * 100, 0.4), 100 - left) + '%';
      track.appendChild(bar);
      var info = [call.kind === 'tool' && call.end === undefined ? 'no result recorded' : ms(call.duration === undefined ? end - call.start : call.duration)];
      if (call.kind === 'model') {
        if (call.usage) info.push(tokens(call.usage));
        if (call.finishReason) info.push(call.finishReason);
        if (call.error) info.push('error: ' + call.error.type);
      } else {
        if (call.outcome) info.push(call.outcome);
        if (call.errorType) info.push(call.errorType);
      }
      track.appendChild(el('span', 'info', info.join(' · ')));
      row.appendChild(track);
      var more = el('pre', 'details', details(call));
      more.hidden = true;
      row.appendChild(more);
      row.addEventListener('click', function () { more.hidden = !more.hidden; });
      section.appendChild(row);
    });
    turn.marks.forEach(function (m) {
      var row = el('div', 'row mark');
      row.appendChild(el('div', 'label', '+' + ms(m.at - turn.start)));
      row.appendChild(el('div', 'track', m.text));
      section.appendChild(row);
    });
    root.appendChild(section);
  });
  document.body.setAttribute('data-rendered', 'true');
})();
`;
