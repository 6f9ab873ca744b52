import type { Message } from '../messages/index.js';
import type { ChatClientRequest, ChatClientResponse } from './chat-client-request.js';

/** Anything placed in a ChatClient's advisor chain. A lower `order` sits further out. */
export interface Advisor {
  readonly name: string;
  readonly order: number;
}

/** The rest of the chain, as seen by a call advisor. */
export interface CallAdvisorChain {
  /** Passes the request to the next advisor (ultimately the model). */
  nextCall(request: ChatClientRequest): Promise<ChatClientResponse>;
  /**
   * A fresh chain of the advisors after `after`: a recursive advisor calls this once per round
   * to re-enter everything downstream of itself.
   */
  copy(after: Advisor): CallAdvisorChain;
  /** The advisors of the whole chain, in order. */
  readonly callAdvisors: readonly CallAdvisor[];
}

/** The rest of the chain, as seen by a stream advisor. */
export interface StreamAdvisorChain {
  nextStream(request: ChatClientRequest): AsyncIterable<ChatClientResponse>;
  copy(after: Advisor): StreamAdvisorChain;
  readonly streamAdvisors: readonly StreamAdvisor[];
}

/** An advisor of blocking calls. */
export interface CallAdvisor extends Advisor {
  adviseCall(request: ChatClientRequest, chain: CallAdvisorChain): Promise<ChatClientResponse>;
}

/** An advisor of streaming calls. */
export interface StreamAdvisor extends Advisor {
  adviseStream(
    request: ChatClientRequest,
    chain: StreamAdvisorChain,
  ): AsyncIterable<ChatClientResponse>;
}

/** Marker: the advisor owns the tool loop. At most one may sit in a chain. */
export interface ToolAdvisor extends Advisor {
  readonly isToolAdvisor: true;
}

/** Marker: the advisor owns chat memory; inside the tool loop it turns internal history off. */
export interface MemoryAdvisor extends Advisor {
  readonly isMemoryAdvisor: true;
  /**
   * Called by the tool advisor in front of it when the loop ends on tool results rather than on a
   * model answer (`returnDirect`, a limit breach), so a memory advisor inside the loop can store
   * the turn's last tool results, which never pass through it. `history` is the whole turn,
   * ending with that tool response message.
   */
  onToolLoopEnd?(request: ChatClientRequest, history: readonly Message[]): Promise<void> | void;
}

/** True for an advisor that handles blocking calls. */
export function isCallAdvisor(advisor: Advisor): advisor is CallAdvisor {
  return typeof (advisor as Partial<CallAdvisor>).adviseCall === 'function';
}

/** True for an advisor that handles streaming calls. */
export function isStreamAdvisor(advisor: Advisor): advisor is StreamAdvisor {
  return typeof (advisor as Partial<StreamAdvisor>).adviseStream === 'function';
}

/** True for a tool-loop advisor. */
export function isToolAdvisor(advisor: Advisor): advisor is ToolAdvisor {
  return (advisor as Partial<ToolAdvisor>).isToolAdvisor === true;
}

/** True for a memory advisor. */
export function isMemoryAdvisor(advisor: Advisor): advisor is MemoryAdvisor {
  return (advisor as Partial<MemoryAdvisor>).isMemoryAdvisor === true;
}
