// Pool worker: screens over the Dataset's shared snapshot tables (attached once per version) and as-of derivations into shared rows.

import { deriveRows } from '../kernels/derive-snapshot.js';
import { screen } from '../queries/screen.js';
import type { AttachedMarkets, DeriveTask, DeriveTaskResult, PoolTask, PoolTaskResult, ScreenTask, ScreenTaskResult } from './tasks.js';

/** Versions this worker holds, newest last; two are enough across a reload. */
const versions = new Map<string, AttachedMarkets>();
const KEEP = 2;

function attach(version: string, markets: AttachedMarkets): AttachedMarkets {
  versions.set(version, markets);
  for (const old of versions.keys()) if (versions.size > KEEP) versions.delete(old); // oldest first
  return markets;
}

/** Runs one task on this thread; the columns are the main thread's memory, read-only (a derivation writes only its own rows of `out`). */
export default function run(task: PoolTask): PoolTaskResult {
  return task.kind === 'screen' ? runScreen(task) : runDerive(task);
}

function runScreen(task: ScreenTask): ScreenTaskResult {
  const markets = task.attach !== undefined ? attach(task.version, task.attach) : versions.get(task.version);
  if (markets === undefined) return { attached: false };
  const table = markets[task.market];
  if (table === undefined) throw new Error(`market ${task.market} missing from version ${task.version}`);
  const result = screen(table, {
    bounds: new Map(task.bounds.map(([column, min, max]) => [column, { min, max }])),
    sort: task.sort,
    descending: task.descending,
    offset: task.offset,
    limit: task.limit,
  });
  return { attached: true, total: result.total, rows: Array.from(result.rows) }; // the page only
}

function runDerive(task: DeriveTask): DeriveTaskResult {
  deriveRows(task.market, task.klines, task.fundamentals, task.asOf, task.symbols, task.from, task.to, task.out);
  return null;
}
