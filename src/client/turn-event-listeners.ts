import { InvalidArgumentError } from '../errors/index.js';
import type { StepFinishEvent, TurnEventListener } from '../observability/turn-event.js';

/** A listener given to the client or a request: a function, or an `InvalidArgumentError`. */
export function checkListener(listener: unknown): TurnEventListener {
  if (typeof listener !== 'function') {
    throw new InvalidArgumentError('a turn event listener must be a function (event) => void');
  }
  return listener as TurnEventListener;
}

/** The listener behind `onStepFinish`: passes on the `step-finish` events only. */
export function stepFinishListener(onStepFinish: unknown): TurnEventListener {
  if (typeof onStepFinish !== 'function') {
    throw new InvalidArgumentError('onStepFinish must be a function (event) => void');
  }
  const callback = onStepFinish as (event: StepFinishEvent) => void;
  return (event) => {
    if (event.type === 'step-finish') callback(event);
  };
}
