// Seeded choices of bench inputs: every run measures the same symbols and values.

/** Seed of every bench pick (the demo data itself is seeded by loaders/demo). */
export const BENCH_SEED = 0x5eed_2025;

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function prng(seed = BENCH_SEED): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `k` distinct integers of [0, n) in ascending order (all of them when k ≥ n). */
export function pickDistinct(n: number, k: number, random = prng()): number[] {
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(Math.floor(random() * n));
  return [...chosen].sort((a, b) => a - b);
}
