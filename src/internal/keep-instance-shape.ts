const kept: object[] = [];

/**
 * Keeps `instance` alive for the life of the process, and returns it.
 *
 * Why: V8 keeps the hidden class ("map") that describes a class's instances with their fields only
 * while some instance lives, and the same holds for any object that gets properties after it is
 * made (added by assignment, by a computed key, by `defineProperty`); only the maps of object
 * literals are also kept by the code that makes them. The objects a turn makes (the response spec,
 * the tool batch, the usage sum, the model caller, the request options with their tools, the turn's
 * context, a tool's context) are all garbage between turns, so a full garbage collection between
 * two turns frees their maps, and every function V8 had optimized against them is deoptimized
 * ("weak objects") and runs unoptimized until it is compiled again: on the loop-overhead
 * conversation, 8 to 13 deoptimizations every third full-GC repetition (`node --trace-deopt`),
 * none with one instance of each kept. Only for shapes made on every turn, and the kept instance
 * must be made by the same code as the real ones (the same function), so it has the same map.
 */
export function keepInstanceShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
