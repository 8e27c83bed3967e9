// Pool worker: screens over a Dataset's snapshot tables and as-of derivations into shared rows. A
// Dataset with an origin is opened by the worker itself, through the module the pool names
// (the engine reads no files); another's shared tables are attached once per version.

import { workerData } from 'node:worker_threads';
import { deriveRows, type SnapshotTable } from '../kernels/derive-snapshot.js';
import { screen } from '../queries/screen.js';
import type {
  AttachedMarkets,
  DeriveTask,
  DeriveTaskResult,
  PoolTask,
  PoolTaskResult,
  ScreenTask,
  ScreenTaskResult,
  ScreensTask,
  ScreensTaskResult,
  SourceOpener,
} from './tasks.js';

const sourceModule = (workerData as { sourceModule?: string } | null)?.sourceModule;
const opener: SourceOpener | null = sourceModule === undefined ? null : ((await import(sourceModule)) as SourceOpener);

function opened(task: ScreenTask | ScreensTask | DeriveTask): ReturnType<SourceOpener['datasetOf']> {
  if (opener === null) throw new Error('a task names a Dataset to open, but the pool was given no sourceModule');
  return opener.datasetOf(task.source!);
}

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
  return task.kind === 'screen' ? runScreen(task) : task.kind === 'screens' ? runScreens(task) : runDerive(task);
}

/** Many screens of one Dataset (standing screens of a new edition): each its total and page. */
function runScreens(task: ScreensTask): ScreensTaskResult {
  const dataset = opened(task);
  return task.screens.map((s) => {
    const result = screen(dataset.markets[s.market].snapshots, {
      bounds: new Map(s.bounds.map(([column, min, max]) => [column, { min, max }])),
      sort: s.sort,
      descending: s.descending,
      offset: s.offset,
      limit: s.limit,
    });
    return { total: result.total, rows: Array.from(result.rows) };
  });
}

/** The task's table: from the Dataset the worker opens, or attached (null: not attached yet). */
function tableOf(task: ScreenTask): SnapshotTable | null {
  if (task.source !== undefined) return opened(task).markets[task.market].snapshots;
  const markets = task.attach !== undefined ? attach(task.version, task.attach) : versions.get(task.version);
  if (markets === undefined) return null;
  const table = markets[task.market];
  if (table === undefined) throw new Error(`market ${task.market} missing from version ${task.version}`);
  return table;
}

function runScreen(task: ScreenTask): ScreenTaskResult {
  const table = tableOf(task);
  if (table === null) return { attached: false };
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
  const m =
    task.source !== undefined
      ? opened(task).markets[task.market]
      : { klines: task.klines!, fundamentals: task.fundamentals! };
  deriveRows(task.market, m.klines, m.fundamentals, task.asOf, task.symbols, task.from, task.to, task.out);
  return null;
}
