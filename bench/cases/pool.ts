// Inline vs pool screens as data: the table sizes measured, the request load beside them, and the tables themselves.

import { sharedFloat64, sharedInt32 } from '../../engine/dataset/kline-columns.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import type { SnapshotTable } from '../../engine/kernels/derive-snapshot.js';
import { sortOrder } from '../../engine/kernels/sort-orders.js';
import { MARKETS } from '../../engine/markets.js';
import { SCREEN_QUERY } from './inputs.js';
import { prng } from './seeded.js';

/** One table size: the real ashare snapshot (rows: null) or a synthetic table of `rows`. */
export interface PoolSize {
  name: string;
  rows: number | null;
}

export const POOL_SIZES: PoolSize[] = [
  { name: 'ashare (real)', rows: null },
  { name: 'synthetic 10k', rows: 10_000 },
  { name: 'synthetic 30k', rows: 30_000 },
  { name: 'synthetic 100k', rows: 100_000 },
  { name: 'synthetic 300k', rows: 300_000 },
  { name: 'synthetic 1M', rows: 1_000_000 },
];

/** The tests' sizes: the real table and one synthetic one, both tiny. */
export const TINY_POOL_SIZES: PoolSize[] = [
  { name: 'ashare (real)', rows: null },
  { name: 'synthetic 2k', rows: 2_000 },
];

/**
 * Main-thread work of one request besides its screen, µs: what our server spends per
 * request on a cached K-line answer (≈ 1 / 49.5k req/s, bench/http). The throughput runs
 * spend it on every screen, so "the main thread is also busy" while the pool works.
 */
export const REQUEST_WORK_US = 20;
/** Requests in flight in the throughput runs. */
export const IN_FLIGHT = 16;

const sharedUint32 = (n: number): Uint32Array => new Uint32Array(new SharedArrayBuffer(n * 4));

/**
 * A SnapshotTable-shaped table of `rows` rows over the screen's columns only: each row is a
 * seeded draw of one real row of `source` (whole rows, so the bounds pass the same share as
 * on the real table), in shared memory like a Dataset's, with the orders the screen reads
 * (the sort column's, and each bounded column's ascending one).
 */
export function syntheticTable(source: SnapshotTable, rows: number, random = prng()): SnapshotTable {
  const columns = [...new Set([...SCREEN_QUERY.bounds.keys(), SCREEN_QUERY.sort])];
  const values: Record<string, Float64Array> = {};
  for (const name of columns) values[name] = sharedFloat64(rows);
  for (let r = 0; r < rows; r++) {
    const from = Math.floor(random() * source.size);
    for (const name of columns) values[name][r] = source.values[name][from];
  }
  const ascending: Record<string, Uint32Array> = {};
  for (const name of SCREEN_QUERY.bounds.keys()) ascending[name] = sortOrder(values[name], false, sharedUint32);
  const order = SCREEN_QUERY.descending
    ? sortOrder(values[SCREEN_QUERY.sort], true, sharedUint32)
    : (ascending[SCREEN_QUERY.sort] ??= sortOrder(values[SCREEN_QUERY.sort], false, sharedUint32));
  return {
    size: rows,
    date: sharedInt32(rows),
    values,
    ascending,
    descending: SCREEN_QUERY.descending ? { [SCREEN_QUERY.sort]: order } : {},
  };
}

/** A stand-in Dataset whose ashare snapshot is `table` (other markets empty): what KernelPool.screen needs. */
export function datasetWith(table: SnapshotTable, version: string): Dataset {
  const empty: SnapshotTable = { size: 0, date: new Int32Array(0), values: {}, ascending: {}, descending: {} };
  const markets = Object.fromEntries(MARKETS.map((m) => [m, { market: m, snapshots: m === 'ashare' ? table : empty }]));
  return { version, manifest: {}, markets, macro: [], hasMacro: false } as unknown as Dataset;
}
