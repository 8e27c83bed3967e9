// Times micro cases with tinybench: calls batched to a sample of tens of µs, median per call, ratio to the case's baseline.

import { Bench } from 'tinybench';
import type { MicroCase } from '../cases/case.js';

/** How long and how finely each variant is timed. */
export interface MicroOptions {
  /** Measured time per variant, ms (tinybench keeps going until `minSamples` too). */
  timeMs: number;
  warmupMs: number;
  minSamples: number;
  /**
   * Target length of one sample, µs: a sub-µs call timed alone measures the clock, so a
   * sample runs the call as many times as fit (0: one call per sample).
   */
  sampleUs: number;
}

export const FULL: MicroOptions = { timeMs: 1_000, warmupMs: 200, minSamples: 32, sampleUs: 50 };
export const QUICK: MicroOptions = { timeMs: 100, warmupMs: 20, minSamples: 8, sampleUs: 50 };
/** One sample of one call: the tests' "does it still run" size. */
export const ONCE: MicroOptions = { timeMs: 0, warmupMs: 0, minSamples: 1, sampleUs: 0 };

export interface VariantFigure {
  name: string;
  /** Median µs per call. */
  us: number;
  /** 99th percentile of the per-sample µs per call (a sample averages `callsPerSample` calls). */
  p99Us: number;
  callsPerSample: number;
  samples: number;
  /** Baseline median over this median: 3 means three times faster than the baseline. */
  speedup: number;
}

export interface CaseFigure {
  group: string;
  name: string;
  detail: string;
  baseline: string;
  variants: VariantFigure[];
}

/** Keeps every answer observable so no call is optimised away. */
export let sink: unknown;

/** Calls of `fn` that fill about `sampleUs`, from a short timed burst after a few warm calls. */
function callsPerSample(fn: () => unknown, sampleUs: number): number {
  if (sampleUs <= 0) return 1;
  for (let k = 0; k < 3; k++) sink = fn();
  let calls = 0;
  const t0 = performance.now();
  do {
    sink = fn();
    calls++;
  } while (performance.now() - t0 < 2 && calls < 100_000);
  const us = ((performance.now() - t0) * 1000) / calls;
  return Math.max(1, Math.round(sampleUs / us));
}

/** Times every variant of `c` (in declaration order) and relates each to the baseline. */
export async function measureCase(c: MicroCase, o: MicroOptions): Promise<CaseFigure> {
  const timed: Omit<VariantFigure, 'speedup'>[] = [];
  for (const v of c.variants) {
    const n = callsPerSample(v.run, o.sampleUs);
    const fn = v.run;
    const bench = new Bench({
      time: o.timeMs,
      warmupTime: o.warmupMs,
      warmup: o.warmupMs > 0,
      iterations: o.minSamples,
      throws: true,
    });
    bench.add(v.name, () => {
      for (let k = 0; k < n; k++) sink = fn();
    });
    await bench.run();
    const r = bench.tasks[0].result;
    if (!('latency' in r))
      throw new Error(`${c.group} / ${c.name} / ${v.name}: tinybench gave no figures (${r.state})`);
    timed.push({
      name: v.name,
      us: (r.latency.p50 * 1000) / n,
      p99Us: (r.latency.p99 * 1000) / n,
      callsPerSample: n,
      samples: r.latency.samplesCount,
    });
  }
  const base = timed.find((v) => v.name === c.baseline);
  if (base === undefined) throw new Error(`${c.group} / ${c.name}: no variant named '${c.baseline}'`);
  return {
    group: c.group,
    name: c.name,
    detail: c.detail,
    baseline: c.baseline,
    variants: timed.map((v) => ({ ...v, speedup: base.us / v.us })),
  };
}

/** Runs every case in order, one progress line per case. */
export async function measureAll(
  cases: MicroCase[],
  o: MicroOptions,
  log: (line: string) => void = () => {},
): Promise<CaseFigure[]> {
  const out: CaseFigure[] = [];
  for (const [k, c] of cases.entries()) {
    log(`micro ${k + 1}/${cases.length}: ${c.group} / ${c.name}`);
    out.push(await measureCase(c, o));
  }
  return out;
}
