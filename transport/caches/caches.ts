// The server's caches, one object on its context, built from one set of budgets (the settings'):
// per Dataset its whole answers, rendered K-line and snapshot rows, period bars and days' rows; the
// as-of tables of past days; and the collections they prompt (`Collector`). Nothing here is a
// module's own: two servers in one process (the tests') keep apart.

import type { Dataset, MarketData, SnapshotView } from '../../engine/dataset/dataset.js';
import { AsOfCache } from '../../engine/dataset/as-of.js';
import type { KernelPool } from '../../engine/pool/pool.js';
import { BarsCache } from '../../engine/queries/bars-cache.js';
import { DayRowsCache } from '../../engine/queries/cross-section.js';
import { Collector } from './collect.js';
import { KlineTextCache } from './kline-text.js';
import { Memo } from './memo.js';
import { DEFAULT_RESPONSE_CACHE, ResponseCache, type ResponseCacheOptions } from './response-cache.js';
import { SnapshotTextCache } from './snapshot-text.js';

const MB = 1024 * 1024;

/** MB of rendered rows (KLINE_TEXT_CACHE_MB) and of as-of tables (AS_OF_CACHE_MB) by default, as the settings declare. */
export const DEFAULT_KLINE_TEXT_CACHE_MB = 256;
export const DEFAULT_AS_OF_CACHE_MB = 256;

/**
 * The rendered-row budget's shares: snapshot rows (detail, screens: ~6,000 symbols, a few column
 * sets) a quarter; K-line rows the rest, of which period bars (their columns, beside their text)
 * a twelfth of the whole.
 */
export const SNAPSHOT_ROWS_SHARE = 0.25;
export const BARS_SHARE = 1 / 12;

export interface CacheBudgets {
  /** Whole answers per Dataset (RESPONSE_CACHE_MB); null: none are kept. */
  answers: ResponseCacheOptions | null;
  /** Rendered rows per Dataset (KLINE_TEXT_CACHE_MB), split by SNAPSHOT_ROWS_SHARE and BARS_SHARE. */
  renderedRowBytes: number;
  /** Snapshot tables as of past days (AS_OF_CACHE_MB), least recently used out first. */
  asOfBytes: number;
}

export const DEFAULT_CACHE_BUDGETS: Readonly<CacheBudgets> = Object.freeze({
  answers: DEFAULT_RESPONSE_CACHE,
  renderedRowBytes: DEFAULT_KLINE_TEXT_CACHE_MB * MB,
  asOfBytes: DEFAULT_AS_OF_CACHE_MB * MB,
});

/** The budgets the settings' megabytes give (RESPONSE_CACHE_MB 0: no answer is kept). */
export function cacheBudgets(mb: {
  responseCacheMb: number;
  klineTextCacheMb: number;
  asOfCacheMb: number;
}): CacheBudgets {
  return {
    answers: mb.responseCacheMb === 0 ? null : { ...DEFAULT_RESPONSE_CACHE, budgetBytes: mb.responseCacheMb * MB },
    renderedRowBytes: mb.klineTextCacheMb * MB,
    asOfBytes: mb.asOfCacheMb * MB,
  };
}

/** Where as-of tables of large markets are derived (the kernel pool), and from what size. */
export interface AsOfPool {
  kernels: KernelPool;
  minAsOfSymbols: number;
}

/** What one Dataset keeps; made on its first request, dropped with it. */
export class DatasetCaches {
  /** Whole answers; null when the server keeps none. */
  readonly answers: ResponseCache | null;
  readonly klineRows: KlineTextCache;
  readonly snapshotRows: SnapshotTextCache;
  readonly bars: BarsCache;
  readonly dayRows = new DayRowsCache();
  /** A screen's row columns by the shape of its request (fields, bounds, sort): screens repeat a handful of shapes. */
  readonly screenColumns = new Memo<{ columns: string[]; key: string }>(1000);

  constructor(
    private readonly dataset: Dataset,
    budgets: CacheBudgets,
    private readonly asOfTables: AsOfCache,
  ) {
    this.answers = budgets.answers === null ? null : new ResponseCache(budgets.answers);
    const snapshotRows = Math.floor(budgets.renderedRowBytes * SNAPSHOT_ROWS_SHARE);
    const bars = Math.floor(budgets.renderedRowBytes * BARS_SHARE);
    this.snapshotRows = new SnapshotTextCache(snapshotRows);
    this.bars = new BarsCache(bars);
    this.klineRows = new KlineTextCache(budgets.renderedRowBytes - snapshotRows - bars);
  }

  /**
   * Market `m` as of `day` (null: as it is). A view not kept yet is derived on the kernel pool
   * when there is one and the market is large enough to pay for it (then: a promise).
   */
  asOf(m: MarketData, day: number | null, pool: AsOfPool | null): SnapshotView | Promise<SnapshotView> {
    return pool === null || m.symbols.size < pool.minAsOfSymbols
      ? this.asOfTables.at(this.dataset, m, day)
      : this.asOfTables.at(this.dataset, m, day, pool.kernels.deriverFor(this.dataset));
  }
}

/** A server's caches: each Dataset's (weakly: a replaced one goes with its last request), the as-of tables, the collections. */
export class Caches {
  readonly collector: Collector;
  private readonly asOfTables: AsOfCache;
  private readonly perDataset = new WeakMap<Dataset, DatasetCaches>();

  constructor(
    readonly budgets: CacheBudgets = DEFAULT_CACHE_BUDGETS,
    collector = new Collector(),
  ) {
    this.collector = collector;
    this.asOfTables = new AsOfCache(budgets.asOfBytes, (bytes) => collector.droppedShared(bytes));
  }

  /** `dataset`'s caches (made on first use). A WeakMap lookup, not a remembered reference: an old Dataset must stay collectable after a reload. */
  of(dataset: Dataset): DatasetCaches {
    let kept = this.perDataset.get(dataset);
    if (kept === undefined)
      this.perDataset.set(dataset, (kept = new DatasetCaches(dataset, this.budgets, this.asOfTables)));
    return kept;
  }

  /** The answer cache of `dataset` (the one served now), for /metrics. */
  answerFigures(dataset: Dataset | null): { hits: number; misses: number; entries: number; bytes: number } {
    const answers = dataset === null ? null : this.of(dataset).answers;
    return answers === null
      ? { hits: 0, misses: 0, entries: 0, bytes: 0 }
      : { hits: answers.hits, misses: answers.misses, ...answers.stats };
  }
}
