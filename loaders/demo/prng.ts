// Seeded pseudo-random numbers (sfc32) with one independent stream per symbol and purpose.

/** A small, fast 32-bit generator (sfc32): same seed, same sequence, on every platform. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare = NaN;

  constructor(seed: number) {
    // splitmix32 spreads one seed over the four state words, so nearby seeds diverge at once.
    let s = seed | 0;
    const mix = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** Next unsigned 32-bit integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer uniform in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Log-uniform in [lo, hi): for sizes spanning orders of magnitude. */
  logRange(lo: number, hi: number): number {
    return lo * Math.exp(Math.log(hi / lo) * this.next());
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a list. */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** Standard normal (Box–Muller; the second value of each pair is kept for the next call). */
  normal(): number {
    const spare = this.spare;
    if (spare === spare) {
      this.spare = NaN;
      return spare;
    }
    const u = 1 - this.next(); // (0, 1]: log stays finite
    const r = Math.sqrt(-2 * Math.log(u));
    const theta = 2 * Math.PI * this.next();
    this.spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  }
}

/** Purposes a symbol draws numbers for; each gets its own stream so one never shifts another. */
export const STREAM = { universe: 1, plan: 2, prices: 3, fundamentals: 4, macro: 5 } as const;

/** Seed of the stream for (run seed, market, symbol, purpose): independent of worker split and scale. */
export function streamSeed(seed: number, market: number, symbol: number, purpose: number): number {
  let h = Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d);
  h = Math.imul(h ^ (market + 1) ^ (h >>> 15), 0x165667b1);
  h = Math.imul(h ^ (symbol + 1) ^ (h >>> 13), 0x9e3779b1);
  h = Math.imul(h ^ purpose ^ (h >>> 16), 0x85ebca77);
  return (h ^ (h >>> 15)) | 0;
}
