export { parseTurnEventRecording } from './parse-turn-event-recording.js';
export {
  renderTracePage,
  renderTracePageFromRecording,
  type TracePageOptions,
} from './render-trace-page.js';
export {
  TURN_EVENT_RECORDING_FORMAT,
  TurnEventRecorder,
  type TurnEventRecorderOptions,
} from './turn-event-recorder.js';
