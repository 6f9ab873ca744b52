import { IllegalStateError, InvalidArgumentError } from '../errors/index.js';
import type {
  Advisor,
  CallAdvisor,
  CallAdvisorChain,
  StreamAdvisor,
  StreamAdvisorChain,
} from './advisor.js';
import { isCallAdvisor, isStreamAdvisor } from './advisor.js';
import type { ChatClientRequest, ChatClientResponse } from './chat-client-request.js';

/** Sorts advisors by `order`, keeping the given order for ties. */
export function sortAdvisors<T extends Advisor>(advisors: readonly T[]): T[] {
  // Chains are usually built in order already (and sorted per request): then a copy is the
  // answer, without the sort and its entry objects.
  let sorted = true;
  for (let index = 1; index < advisors.length && sorted; index++) {
    sorted = (advisors[index - 1] as T).order <= (advisors[index] as T).order;
  }
  if (sorted) return advisors.slice();
  return advisors
    .map((advisor, index) => ({ advisor, index }))
    .sort((left, right) => left.advisor.order - right.advisor.order || left.index - right.index)
    .map((entry) => entry.advisor);
}

/**
 * The ordered chain of call advisors of one request. `nextCall` walks it by position rather than
 * by mutating a queue, so a chain and its copies never share cursor state.
 */
export class DefaultCallAdvisorChain implements CallAdvisorChain {
  readonly callAdvisors: readonly CallAdvisor[];
  private readonly position: number;
  /** The chain after this position, made once: a chain is immutable, so it can be shared. */
  #rest: DefaultCallAdvisorChain | undefined;

  /** `advisors` must already be sorted; use {@link DefaultCallAdvisorChain.of} to sort. */
  constructor(advisors: readonly CallAdvisor[], position = 0) {
    this.callAdvisors = advisors;
    this.position = position;
  }

  /** Builds a chain from the call advisors among `advisors`, sorted by order. */
  static of(advisors: readonly Advisor[]): DefaultCallAdvisorChain {
    return new DefaultCallAdvisorChain(sortAdvisors(advisors.filter(isCallAdvisor)));
  }

  nextCall(request: ChatClientRequest): Promise<ChatClientResponse> {
    const advisor = this.callAdvisors[this.position];
    if (!advisor) {
      return Promise.reject(new IllegalStateError('No CallAdvisors available to execute'));
    }
    this.#rest ??= new DefaultCallAdvisorChain(this.callAdvisors, this.position + 1);
    return advisor.adviseCall(request, this.#rest);
  }

  copy(after: Advisor): CallAdvisorChain {
    const index = this.callAdvisors.indexOf(after as CallAdvisor);
    if (index === -1) {
      throw new InvalidArgumentError(
        `The specified advisor is not part of the chain: ${after.name}`,
      );
    }
    // The usual copy is the chain the advisor was given: this one.
    return index + 1 === this.position
      ? this
      : new DefaultCallAdvisorChain(this.callAdvisors, index + 1);
  }
}

/** The ordered chain of stream advisors of one request. */
export class DefaultStreamAdvisorChain implements StreamAdvisorChain {
  readonly streamAdvisors: readonly StreamAdvisor[];
  private readonly position: number;
  /** The chain after this position, made once (as in {@link DefaultCallAdvisorChain}). */
  #rest: DefaultStreamAdvisorChain | undefined;

  /** `advisors` must already be sorted; use {@link DefaultStreamAdvisorChain.of} to sort. */
  constructor(advisors: readonly StreamAdvisor[], position = 0) {
    this.streamAdvisors = advisors;
    this.position = position;
  }

  /** Builds a chain from the stream advisors among `advisors`, sorted by order. */
  static of(advisors: readonly Advisor[]): DefaultStreamAdvisorChain {
    return new DefaultStreamAdvisorChain(sortAdvisors(advisors.filter(isStreamAdvisor)));
  }

  nextStream(request: ChatClientRequest): AsyncIterable<ChatClientResponse> {
    const advisor = this.streamAdvisors[this.position];
    if (!advisor) throw new IllegalStateError('No StreamAdvisors available to execute');
    this.#rest ??= new DefaultStreamAdvisorChain(this.streamAdvisors, this.position + 1);
    return advisor.adviseStream(request, this.#rest);
  }

  copy(after: Advisor): StreamAdvisorChain {
    const index = this.streamAdvisors.indexOf(after as StreamAdvisor);
    if (index === -1) {
      throw new InvalidArgumentError(
        `The specified advisor is not part of the chain: ${after.name}`,
      );
    }
    // The usual copy is the chain the advisor was given: this one.
    return index + 1 === this.position
      ? this
      : new DefaultStreamAdvisorChain(this.streamAdvisors, index + 1);
  }
}
