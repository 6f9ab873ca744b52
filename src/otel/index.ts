export {
  type OpenTelemetryListenerOptions,
  openTelemetryListener,
} from './open-telemetry-listener.js';
