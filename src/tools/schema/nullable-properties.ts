/**
 * Where omitted nullable properties must be filled with `null` before a schema library validates
 * the arguments: the names at this object level, and plans for nested objects and array items.
 */
export interface NullableFillPlan {
  readonly names: readonly string[];
  readonly properties: ReadonlyMap<string, NullableFillPlan>;
  readonly items: NullableFillPlan | undefined;
}

/**
 * Takes every property that accepts `null` out of `required` (a nullable property is optional to
 * the model, as a nullable parameter is in Spring AI), following `properties` and `items`
 * from the root. Mutates `schema` (pass a copy) and returns where `null` must be filled in for
 * the omitted properties, because libraries such as Zod still expect the key to be present.
 * Returns `undefined` when nothing was relaxed.
 */
export function relaxNullableRequired(
  schema: Record<string, unknown>,
): NullableFillPlan | undefined {
  return relax(schema, new Set());
}

/** Returns a copy of `value` with `null` in every omitted property the plan names. */
export function fillOmittedNullables(plan: NullableFillPlan | undefined, value: unknown): unknown {
  if (plan === undefined) return value;
  if (Array.isArray(value)) {
    return plan.items === undefined
      ? value
      : value.map((item) => fillOmittedNullables(plan.items, item));
  }
  if (typeof value !== 'object' || value === null) return value;
  const filled: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const name of plan.names) if (!Object.hasOwn(filled, name)) filled[name] = null;
  for (const [name, child] of plan.properties) {
    if (Object.hasOwn(filled, name)) filled[name] = fillOmittedNullables(child, filled[name]);
  }
  return filled;
}

function relax(node: unknown, seen: Set<object>): NullableFillPlan | undefined {
  if (typeof node !== 'object' || node === null || seen.has(node)) return undefined;
  seen.add(node);
  const schema = node as Record<string, unknown>;
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null
      ? (schema.properties as Record<string, unknown>)
      : {};
  let names: string[] = [];
  if (Array.isArray(schema.required)) {
    names = schema.required.filter(
      (name): name is string => typeof name === 'string' && acceptsNull(properties[name]),
    );
    if (names.length > 0) schema.required = schema.required.filter((name) => !names.includes(name));
  }
  const children = new Map<string, NullableFillPlan>();
  for (const [name, child] of Object.entries(properties)) {
    const plan = relax(child, seen);
    if (plan !== undefined) children.set(name, plan);
  }
  const items = Array.isArray(schema.items) ? undefined : relax(schema.items, seen);
  if (names.length === 0 && children.size === 0 && items === undefined) return undefined;
  return { names, properties: children, items };
}

function acceptsNull(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const node = schema as Record<string, unknown>;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if (node.const === null || (Array.isArray(node.enum) && node.enum.includes(null))) return true;
  if (node.nullable === true) return true;
  return ['anyOf', 'oneOf'].some(
    (keyword) => Array.isArray(node[keyword]) && (node[keyword] as unknown[]).some(acceptsNull),
  );
}
