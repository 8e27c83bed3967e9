// What crosses the thread boundary for a screen: parameters in, positions out (never column data).

import type { Market } from '../markets.js';
import type { SnapshotTable } from '../kernels/derive-snapshot.js';

/** A market's snapshot table as a worker keeps it: shared columns, attached once per version. */
export type AttachedTables = Partial<Record<Market, SnapshotTable>>;

export interface ScreenTask {
  version: string;
  market: Market;
  bounds: [column: string, min: number, max: number][];
  sort: string;
  descending: boolean;
  offset: number;
  limit: number;
  /** Sent only when the worker said it does not hold `version` yet. */
  attach?: AttachedTables;
}

export type ScreenTaskResult = { attached: false } | { attached: true; total: number; rows: number[] };
