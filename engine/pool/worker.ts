// Pool worker: runs screens over the Dataset's shared snapshot columns, attached once per version.

import { screen } from '../queries/screen.js';
import type { AttachedTables, ScreenTask, ScreenTaskResult } from './screen-task.js';

/** Versions this worker holds, newest last; two are enough across a reload. */
const versions = new Map<string, AttachedTables>();
const KEEP = 2;

function attach(version: string, tables: AttachedTables): AttachedTables {
  versions.set(version, tables);
  for (const old of versions.keys()) if (versions.size > KEEP) versions.delete(old); // oldest first
  return tables;
}

/** Filters and sorts on this thread; the columns are the main thread's memory, read-only. */
export default function runScreen(task: ScreenTask): ScreenTaskResult {
  const tables = task.attach !== undefined ? attach(task.version, task.attach) : versions.get(task.version);
  if (tables === undefined) return { attached: false };
  const table = tables[task.market];
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
