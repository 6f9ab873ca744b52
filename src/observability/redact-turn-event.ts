import type { ToolCall } from '../messages/index.js';
import type { TurnEvent } from './turn-event.js';

const withoutArguments = (call: ToolCall): ToolCall => ({
  id: call.id,
  name: call.name,
  arguments: '',
});

/**
 * The event without its content: tool arguments and results, answer and progress values, and
 * error messages become empty; names, ids, outcomes, error types, usage and timings stay. Text
 * deltas have nothing else, so they are dropped (`undefined`). For exporters that leave the
 * process (logs, trace files) when content export is off.
 */
export function redactTurnEvent(event: TurnEvent): TurnEvent | undefined {
  switch (event.type) {
    case 'text-delta':
      return undefined;
    case 'tool-call-delta':
      return { ...event, argumentsDelta: '' };
    case 'tool-call':
      return { ...event, toolCall: withoutArguments(event.toolCall) };
    case 'tool-progress':
      return { ...event, value: null };
    case 'tool-result': {
      // The parts' summary (type, media type, size) stays; their bytes go.
      const { content: _content, ...rest } = event;
      return { ...rest, result: '' };
    }
    case 'approval-pending':
    case 'step-finish':
      return { ...event, toolCalls: event.toolCalls.map(withoutArguments) };
    case 'model-call-end':
      return event.error === undefined
        ? event
        : { ...event, error: { type: event.error.type, message: '' } };
    case 'turn-finish': {
      const { text: _text, ...rest } = event;
      return rest;
    }
    case 'turn-error':
      return { ...event, error: { ...event.error, message: '' } };
    case 'tool-search-fallback':
      return event.error === undefined
        ? event
        : { ...event, error: { ...event.error, message: '' } };
    default:
      return event;
  }
}
