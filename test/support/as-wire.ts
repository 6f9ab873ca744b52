/**
 * An SDK type as its JSON travels on the wire: each string enum as the union of its values (a
 * literal `'OBJECT'` is not assignable to the enum `Type.OBJECT` in TypeScript, though both are
 * the same JSON), arrays and objects converted member by member. Lets a test check a wire type
 * written with string literals against `@google/genai`'s published types.
 */
export type AsWire<T> = T extends string
  ? `${T}`
  : T extends readonly (infer Item)[]
    ? AsWire<Item>[]
    : T extends (...args: never[]) => unknown
      ? T
      : T extends object
        ? { [Key in keyof T]: AsWire<T[Key]> }
        : T;
