import type { CallAdvisorChain, ChatClientRequest, ChatClientResponse } from '../advisors/index.js';
import { keepInstanceShape } from '../internal/keep-instance-shape.js';
import { type ModelCaller, runToolLoop } from './run-tool-loop.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';

/**
 * The call driver of the tool loop: runs the loop core, making each model call it asks for with
 * the rest of the chain's `nextCall`. Resolves to the finalized response of the turn.
 */
export function callToolLoop(
  hooks: ToolLoopHooks,
  request: ChatClientRequest,
  chain: CallAdvisorChain,
): Promise<ChatClientResponse> {
  return runToolLoop(hooks, request, 'call', chain, new CallModelCaller(chain.copy(hooks.advisor)));
}

class CallModelCaller implements ModelCaller {
  readonly #next: CallAdvisorChain;

  constructor(next: CallAdvisorChain) {
    this.#next = next;
  }

  callModel(request: ChatClientRequest): Promise<ChatClientResponse> {
    return this.#next.nextCall(request);
  }

  emit(): void {
    // Call mode has no chunks: the core returns its answer.
  }
}

keepInstanceShape(new CallModelCaller({} as CallAdvisorChain));
