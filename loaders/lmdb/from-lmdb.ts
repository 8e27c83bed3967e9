// Reads a stored snapshot environment back into SharedArrayBuffer-backed columns.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { KLINE_VALUE_COLUMNS, type FundamentalColumns, type KlineColumns, sharedFloat64, sharedInt32 } from '../../engine/dataset/kline-columns.js';
import { envFile, FORMAT, fundamentalsKey, klineKey, type SnapshotMeta, type StoredMarketMeta } from './layout.js';

export interface StoredMarket {
  meta: StoredMarketMeta;
  klines: KlineColumns;
  fundamentals: FundamentalColumns;
}

export interface StoredSnapshot {
  meta: SnapshotMeta;
  markets: StoredMarket[];
}

/** The meta record of the environment at `dir`, or null if it holds none of this format. */
export async function readMeta(dir: string): Promise<SnapshotMeta | null> {
  const env = open({ path: envFile(dir), encoding: 'msgpack', readOnly: true });
  try {
    const meta = env.get('meta') as SnapshotMeta | undefined;
    return meta !== undefined && meta.format === FORMAT ? meta : null;
  } finally {
    await env.close();
  }
}

/**
 * Copies every block of the environment at `dir` into fresh shared memory. Every column is
 * allocated first; then this thread and `threads` helpers (copy-worker.ts; default cores − 1)
 * take columns one at a time from a shared counter and fill them. Why threads: the copy is
 * mostly page faults (on the VMs measured here the first write to a fresh page costs ~15 µs:
 * 200 MB copied in 740 ms into fresh memory, 16 ms into memory already touched), and faults
 * on different cores proceed in parallel.
 */
export async function readSnapshotEnv(dir: string, threads = availableParallelism() - 1, { callerCopies = true } = {}): Promise<StoredSnapshot> {
  const env = open({ path: envFile(dir), encoding: 'msgpack', readOnly: true });
  try {
    const meta = env.get('meta') as SnapshotMeta | undefined;
    if (meta === undefined || meta.format !== FORMAT) throw new Error(`${dir}: not a stored snapshot of format ${FORMAT}`);
    const markets = meta.markets.map((m) => ({ meta: m, klines: klineColumns(m), fundamentals: fundamentalColumns(m) }));
    const next = new Int32Array(new SharedArrayBuffer(4)); // the next column to fill, for every thread
    const helpers = Array.from({ length: Math.max(0, threads) }, () => helper({ dir, markets, next }));
    // `callerCopies: false` leaves every column to the helpers (a test of their copying).
    const mine = callerCopies || threads <= 0 ? Promise.resolve().then(() => fillColumns(env, markets, next)) : Promise.resolve();
    const results = await Promise.allSettled([mine, ...helpers]);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    return { meta, markets };
  } finally {
    await env.close();
  }
}

/** The job of one copy helper. */
export interface CopyJob {
  dir: string;
  markets: StoredMarket[];
  next: Int32Array;
}

function helper(job: CopyJob): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./copy-worker.js', import.meta.url), { workerData: job });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a snapshot copy helper exited with code ${code}`))));
  });
}

/** Takes columns from `next` until none is left, copying each from `env` (this thread's handle). */
export function fillColumns(env: RootDatabase, markets: StoredMarket[], next: Int32Array): void {
  const blocks = env.openDB({ name: 'blocks', encoding: 'binary' });
  const fills = markets.flatMap((m) => [...klineFills(blocks, m.meta, m.klines), ...fundamentalFills(blocks, m.meta, m.fundamentals)]);
  for (let i = Atomics.add(next, 0, 1); i < fills.length; i = Atomics.add(next, 0, 1)) fills[i]();
}

function offsetsOf(counts: readonly number[]): Int32Array {
  const offsets = sharedInt32(counts.length + 1);
  counts.forEach((n, i) => (offsets[i + 1] = offsets[i] + n));
  return offsets;
}

/**
 * Copies one block into `target` at element `at`. getBinaryFast's buffer is only valid
 * until the next read, so it is copied before anything else touches the database.
 */
function copyBlock(blocks: Database, key: Key[], target: Float64Array | Int32Array, at: number, count: number): void {
  const bytes = count * target.BYTES_PER_ELEMENT;
  if (bytes === 0) return;
  const block = blocks.getBinaryFast(key);
  if (block === undefined || block.length !== bytes) throw new Error(`stored snapshot is damaged: block ${key.join('/')} is missing or has the wrong size`);
  new Uint8Array(target.buffer, target.byteOffset + at * target.BYTES_PER_ELEMENT, bytes).set(block.subarray(0, bytes));
}

/** The copy of one column's stored blocks into it. */
type Fill = () => void;

function klineColumns(m: StoredMarketMeta): KlineColumns {
  const offsets = offsetsOf(m.klineRows);
  const rows = offsets[offsets.length - 1];
  const columns = { offsets, date: sharedInt32(rows) } as KlineColumns;
  for (const name of KLINE_VALUE_COLUMNS) columns[name] = sharedFloat64(rows);
  return columns;
}

/** Each K-line column filled whole, symbol after symbol, before the next column. */
function klineFills(blocks: Database, m: StoredMarketMeta, columns: KlineColumns): Fill[] {
  const { offsets } = columns;
  const fill = (name: 'date' | (typeof KLINE_VALUE_COLUMNS)[number]): Fill => () =>
    m.symbols.forEach((symbol, i) => copyBlock(blocks, klineKey(m.market, symbol, name), columns[name], offsets[i], offsets[i + 1] - offsets[i]));
  return [fill('date'), ...KLINE_VALUE_COLUMNS.map(fill)];
}

function fundamentalColumns(m: StoredMarketMeta): FundamentalColumns {
  const offsets = offsetsOf(m.fundamentalRows);
  const rows = offsets[offsets.length - 1];
  const columns: Record<string, Float64Array> = {};
  for (const name of m.fundamentalColumns) columns[name] = sharedFloat64(rows);
  return { offsets, date: sharedInt32(rows), columns };
}

function fundamentalFills(blocks: Database, m: StoredMarketMeta, f: FundamentalColumns): Fill[] {
  const rows = f.date.length;
  return [
    () => copyBlock(blocks, fundamentalsKey(m.market, 'date'), f.date, 0, rows),
    ...m.fundamentalColumns.map((name) => () => copyBlock(blocks, fundamentalsKey(m.market, name), f.columns[name], 0, rows)),
  ];
}
