// toolloop/durable: turns as durable workflows on DBOS Transact and PostgreSQL (needs the optional
// peer @dbos-inc/dbos-sdk). The step boundaries themselves (DurableSteps) are engine-neutral.
export type {
  DurablePendingApproval,
  DurableSteps,
  DurableToolCallOutcome,
  DurableToolCallStep,
} from '../advisors/index.js';
export { DbosTurnClient, type DbosTurnClientOptions } from './dbos-turn-client.js';
export {
  DbosTurnWorker,
  type DbosTurnWorkerOptions,
  type DurableAgentOptions,
  type DurableQueueOptions,
  type RefusedTurn,
} from './dbos-turn-worker.js';
export { DurableTurnError, type DurableTurnProblem } from './durable-turn-error.js';
export type { DurableTurnEvent, DurableTurnEventEntry } from './durable-turn-event.js';
export type {
  DurableApprovalWait,
  DurableTurnHandle,
  DurableTurnStatus,
} from './durable-turn-handle.js';
export type { DurableTurnInput } from './durable-turn-input.js';
export type {
  UnknownOutcomeAnswer,
  UnknownOutcomePolicy,
  UnknownOutcomeQuestion,
} from './unknown-outcome.js';
