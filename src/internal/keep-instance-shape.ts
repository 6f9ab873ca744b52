const kept: object[] = [];

/**
 * Keeps `instance` alive for the life of the process, and returns it.
 *
 * Why: V8 keeps the hidden class ("map") that describes a class's instances with their fields only
 * while some instance lives. The objects a turn makes of a class (the response spec, the tool
 * batch, the usage sum, the model caller) are all garbage between turns, so a full garbage
 * collection between two turns frees their maps, and every function V8 had optimized against them
 * is deoptimized ("weak objects") and runs unoptimized until it is compiled again: on the
 * loop-overhead conversation, 19 deoptimizations after every full GC (`node --trace-deopt`),
 * none with one instance of each kept. Only for classes instantiated on every turn.
 */
export function keepInstanceShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
