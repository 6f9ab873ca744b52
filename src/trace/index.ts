export { parseTurnEventRecording } from './parse-turn-event-recording.js';
export {
  renderTracePage,
  renderTracePageFromRecording,
  type TracePageOptions,
} from './render-trace-page.js';
export {
  TurnEventRecorder,
  type TurnEventRecorderOptions,
} from './turn-event-recorder.js';
