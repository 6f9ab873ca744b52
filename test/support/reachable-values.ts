/**
 * Everything reachable from `root` through own properties (string and symbol keys, enumerable or
 * not) and array items, each value once: what an adapter that walks or serialises an object
 * could find in it. Functions are listed but not entered (their closures cannot be walked).
 */
export function reachableValues(root: unknown): { keys: Set<PropertyKey>; values: Set<unknown> } {
  const keys = new Set<PropertyKey>();
  const values = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (values.has(value)) continue;
    values.add(value);
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Reflect.ownKeys(value)) {
      keys.add(key);
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && 'value' in descriptor) stack.push(descriptor.value);
    }
  }
  return { keys, values };
}

/** Whether any string reachable from `root` (a key or a value) contains `needle`. */
export function reachesText(root: unknown, needle: string): boolean {
  const { keys, values } = reachableValues(root);
  for (const key of keys) if (typeof key === 'string' && key.includes(needle)) return true;
  for (const value of values) if (typeof value === 'string' && value.includes(needle)) return true;
  return false;
}
