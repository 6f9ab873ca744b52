import { GCProfiler } from 'node:v8';

/** True when `BENCH_SMOKE=1`: every benchmark runs tiny counts so CI can prove it still works. */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** Picks the full count, or the tiny one in a smoke run. */
export function count(full: number, smoke: number): number {
  return SMOKE ? smoke : full;
}

/** Forces a full garbage collection when node runs with `--expose-gc` (bench/run.sh does). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

/** Whether `collectGarbage()` really collects (node started with `--expose-gc`). */
export function canCollectGarbage(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/** One timed repetition: wall time, and what the garbage collector saw meanwhile. */
export interface Sample {
  /** Wall-clock milliseconds for the whole repetition. */
  ms: number;
  /** Bytes allocated on the V8 heap during the repetition (collected bytes + growth). */
  allocatedBytes: number;
  /** Heap growth from the start to the end of the repetition, without a forced GC at the end. */
  heapDeltaBytes: number;
  /** Garbage collections that ran during the repetition. */
  gcCount: number;
  /** Milliseconds spent in those collections. */
  gcMs: number;
}

/** The result of `measure`: every sample plus the sample whose time is the median. */
export interface Measurement {
  /** Operations (conversations) per repetition. */
  operations: number;
  /** All timed samples, in run order. */
  samples: Sample[];
  /** The sample with the median wall time. */
  median: Sample;
  /** Median microseconds per operation. */
  usPerOp: number;
  /** Fastest and slowest repetition, in microseconds per operation. */
  minUsPerOp: number;
  maxUsPerOp: number;
}

/** Options for `measure`. */
export interface MeasureOptions {
  /** Operations each repetition runs (used for the per-operation numbers). */
  operations: number;
  /** Timed repetitions (the median is reported). */
  repetitions?: number;
  /** Untimed repetitions run first, so the JIT has compiled the hot path (default 1). */
  warmup?: number;
  /** What a warm-up repetition runs instead of `repetition` (e.g. fewer operations). */
  warmupRepetition?: () => Promise<void>;
  /**
   * Start every timed repetition right after a full garbage collection (the full-GC regime, as on
   * a server under memory pressure); the collection itself is not timed. Needs `--expose-gc`.
   */
  fullGc?: boolean;
}

/** Repetitions by default: 5, or 2 in a smoke run. */
export const DEFAULT_REPETITIONS = count(5, 2);

/**
 * Runs `repetition` `warmup` times untimed, then `repetitions` times timed, and reports the
 * median. Allocated bytes are counted exactly, without sampling: the heap's used size at the end
 * minus at the start, plus what every garbage collection in between freed (`v8.GCProfiler` reports
 * each collection's used size before and after). Node 20's `v8.getHeapStatistics()` has no
 * `total_allocated_bytes`; `checkAllocationCounter()` proves this count on objects of known size.
 */
export async function measure(
  repetition: () => Promise<void>,
  options: MeasureOptions,
): Promise<Measurement> {
  const repetitions = options.repetitions ?? DEFAULT_REPETITIONS;
  const warmup = options.warmup ?? 1;
  for (let i = 0; i < warmup; i++) await (options.warmupRepetition ?? repetition)();
  const samples: Sample[] = [];
  if (options.fullGc) {
    check(canCollectGarbage(), 'the full-GC regime needs node --expose-gc');
  }
  for (let i = 0; i < repetitions; i++) {
    // Warm regime: no forced GC. Full-GC regime: a full collection first, as on a service under
    // memory pressure: it frees whatever no live object holds, the hidden classes of short-lived
    // objects and the optimized code of short-lived closures included, so the repetition pays for
    // every deoptimization and recompilation that causes (and for its scavenges in a young
    // generation the collection emptied; on Node 20 it keeps its size).
    if (options.fullGc) collectGarbage();
    const profiler = new GCProfiler();
    const heapBefore = process.memoryUsage().heapUsed;
    profiler.start();
    const start = process.hrtime.bigint();
    await repetition();
    const end = process.hrtime.bigint();
    const heapAfter = process.memoryUsage().heapUsed;
    const profile = profiler.stop();
    let collected = 0;
    let gcMicros = 0;
    for (const entry of profile?.statistics ?? []) {
      collected +=
        entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
      gcMicros += entry.cost;
    }
    samples.push({
      ms: Number(end - start) / 1e6,
      allocatedBytes: Math.max(0, heapAfter - heapBefore + collected),
      heapDeltaBytes: heapAfter - heapBefore,
      gcCount: profile?.statistics.length ?? 0,
      gcMs: gcMicros / 1000,
    });
  }
  return summarize(samples, options.operations);
}

/** The measurement of timed samples of `operations` operations each: the median and the range. */
export function summarize(samples: Sample[], operations: number): Measurement {
  const sorted = [...samples].sort((a, b) => a.ms - b.ms);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const perOp = (sample: Sample) => (sample.ms * 1000) / operations;
  return {
    operations,
    samples,
    median,
    usPerOp: perOp(median),
    minUsPerOp: perOp(sorted[0]!),
    maxUsPerOp: perOp(sorted[sorted.length - 1]!),
  };
}

/** Runs `task(0..total-1)` with at most `concurrency` in flight; resolves when all are done. */
export async function runConcurrently(
  total: number,
  concurrency: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      await task(index);
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(concurrency, total); i++) workers.push(worker());
  await Promise.all(workers);
}

/** Runs `task(0..total-1)` one after another. */
export async function runSequentially(
  total: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < total; i++) await task(i);
}

/** Formats a number with a fixed count of significant digits, thousands separated. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 10 ** digits) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** Formats a byte count as B, KB or MB (1 KB = 1,024 B). */
export function fmtBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1024 * 1024) return `${fmt(bytes / (1024 * 1024))} MB`;
  if (abs >= 1024) return `${fmt(bytes / 1024)} KB`;
  return `${fmt(bytes)} B`;
}

/** Formats a ratio such as `2.41×`. */
export function fmtRatio(ratio: number): string {
  return `${fmt(ratio)}×`;
}

/** A markdown table from a header row and data rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const align = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(align), ...rows.map(line)].join('\n');
}

/** `met` / `missed` wording for a target line. */
export function verdict(met: boolean): string {
  return met ? '**met**' : '**missed**';
}

/** Writes a progress line to stderr (stdout carries only the markdown section). */
export function progress(message: string): void {
  process.stderr.write(`  [${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Makes sure a benchmark's work really happened: throws with the label when it did not. */
export function check(condition: boolean, label: string): asserts condition {
  if (!condition) throw new Error(`benchmark self-check failed: ${label}`);
}

/**
 * Runs `operation` untimed until `budgetMs` have passed or `maxRuns` runs are done (at least
 * `minRuns`), so the JIT has seen the hot path; returns the mean milliseconds per run, which
 * callers use to size their timed repetitions.
 */
export async function warmUp(
  operation: () => Promise<unknown>,
  options: { budgetMs: number; maxRuns: number; minRuns?: number },
): Promise<number> {
  const minRuns = options.minRuns ?? 5;
  const started = performance.now();
  let runs = 0;
  while (
    runs < minRuns ||
    (runs < options.maxRuns && performance.now() - started < options.budgetMs)
  ) {
    await operation();
    runs++;
  }
  return (performance.now() - started) / runs;
}

/**
 * How many operations a timed repetition runs: `full`, unless that would take longer than
 * `repetitionMs` at `msPerOperation`, then fewer, but never below `minimum`.
 */
export function operationsFor(
  msPerOperation: number,
  full: number,
  minimum: number,
  repetitionMs = 1500,
): number {
  if (SMOKE) return full;
  return Math.max(minimum, Math.min(full, Math.round(repetitionMs / msPerOperation)));
}

/**
 * Self-check of `measure`'s allocation count: one million objects of three small-integer fields
 * (48 bytes each on 64-bit V8: map, properties, elements and three fields) must count as 48 bytes
 * each, within 1%. Returns the bytes counted per object.
 */
export async function checkAllocationCounter(): Promise<number> {
  const objects = count(1_000_000, 100_000);
  const sink: unknown[] = new Array(1024);
  const allocate = async () => {
    for (let i = 0; i < objects; i++) sink[i & 1023] = { a: i, b: i, c: i };
  };
  const measured = await measure(allocate, { operations: objects, repetitions: 3, warmup: 1 });
  const perObject = measured.median.allocatedBytes / objects;
  check(
    Math.abs(perObject - 48) <= 0.48,
    `the allocation counter counted ${perObject.toFixed(2)} bytes per 48-byte object`,
  );
  return perObject;
}
