/**
 * Collects advisor params for one request (`.advisors(a => a.param(key, value))`). Params travel
 * in `ChatClientRequest.context`, never in the prompt, and are distinct from the tool context.
 */
export class AdvisorSpec {
  /** The params set so far. */
  readonly values: Record<string, unknown> = {};

  /** Sets one param; returns this spec for chaining. */
  param(key: string, value: unknown): this {
    this.values[key] = value;
    return this;
  }

  /** Sets several params; returns this spec for chaining. */
  params(values: Readonly<Record<string, unknown>>): this {
    Object.assign(this.values, values);
    return this;
  }
}

/** A function that sets advisor params, as taken by `.advisors(...)`. */
export type AdvisorParamsCustomizer = (spec: AdvisorSpec) => unknown;
