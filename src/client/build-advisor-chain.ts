import {
  type Advisor,
  ChatModelAdvisor,
  isMemoryAdvisor,
  isToolAdvisor,
} from '../advisors/index.js';
import { IllegalStateError } from '../errors/index.js';
import type { ChatModel } from '../model/index.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import { AdvisorParams } from './advisor-params.js';

/**
 * The advisors of one request, in the order given, ready for a chain: the request's advisors, the
 * auto-registered tool advisor when it applies, and the terminal model advisor.
 *
 * Auto-registration is skipped when the advisor param
 * `AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER` is exactly `false` or when a `ToolAdvisor` is
 * already present. Otherwise `template` (a copy of it, unless it is a plain ToolCallingAdvisor with
 * the wanted history setting) is added, also when the request has no tools (an
 * advisor may add tools at run time), with internal conversation history off exactly when a
 * memory advisor sits inside the loop (a larger order than the template's) and the turn is not
 * `durable`: a durable turn's rounds always carry the whole turn, since a round replayed from its
 * checkpoint never passed through the memory advisor, which therefore cannot fill the turn in. More
 * than one `ToolAdvisor` is an `IllegalStateError` naming them all.
 */
export function buildAdvisorChain(
  chatModel: ChatModel,
  advisors: readonly Advisor[],
  context: Readonly<Record<string, unknown>>,
  template: ToolCallingAdvisor,
  durable = false,
): Advisor[] {
  const result = [...advisors];
  const autoRegister = context[AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER] !== false;
  if (autoRegister && !result.some(isToolAdvisor)) {
    const memoryInsideLoop = result.some(
      (advisor) => isMemoryAdvisor(advisor) && advisor.order > template.order,
    );
    const conversationHistoryEnabled = durable || !memoryInsideLoop;
    // The built-in ToolCallingAdvisor keeps no per-request state, so a template that already has
    // the wanted setting serves every request as it is: copying it allocated 0.9 KB per
    // loop-overhead conversation (bench/allocation-profile.ts). A subclass may keep state of its
    // own, so it is still copied per request.
    result.push(
      template.constructor === ToolCallingAdvisor &&
        template.conversationHistoryEnabled === conversationHistoryEnabled
        ? template
        : template.copy({ conversationHistoryEnabled }),
    );
  }
  const toolAdvisors = result.filter(isToolAdvisor);
  if (toolAdvisors.length > 1) {
    const names = toolAdvisors.map((advisor) => `${advisor.name} (order=${advisor.order})`);
    throw new IllegalStateError(
      `At most one ToolAdvisor is allowed in the advisor chain, but found ${toolAdvisors.length}: [${names.join(', ')}]`,
    );
  }
  result.push(new ChatModelAdvisor(chatModel));
  return result;
}
