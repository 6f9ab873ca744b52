import type { AdvisorParamsCustomizer } from './advisor-spec.js';

// Spring AI's key string, so a param set by name in code ported from Spring AI still opts out.
const TOOL_CALLING_ADVISOR_AUTO_REGISTER =
  'spring.ai.chat.client.tool.calling.advisor.auto-register';

/** Advisor params understood by the ChatClient itself. */
export const AdvisorParams = {
  /**
   * When this param is exactly `false`, the ChatClient does not add its `ToolCallingAdvisor` to
   * the request's chain, and the caller drives the tool loop.
   */
  TOOL_CALLING_ADVISOR_AUTO_REGISTER,

  /** `a => a.param(TOOL_CALLING_ADVISOR_AUTO_REGISTER, enabled)`, for `.advisors(...)`. */
  toolCallingAdvisorAutoRegister(enabled: boolean): AdvisorParamsCustomizer {
    return (spec) => spec.param(TOOL_CALLING_ADVISOR_AUTO_REGISTER, enabled);
  },
} as const;
