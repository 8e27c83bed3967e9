// The kernel pool: Piscina workers that run screens over the Dataset's shared arrays.

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { ResourceLimits } from 'node:worker_threads';
import type { Dataset, DatasetOrigin, MarketData } from '../dataset/dataset.js';
import { allocateSnapshotRows, deriveRows, type SnapshotTable, withScreenOrders } from '../kernels/derive-snapshot.js';
import { MARKETS, type Market } from '../markets.js';
import type { ScreenQuery, ScreenResult } from '../queries/screen.js';
import type {
  AttachedMarkets,
  DeriveTask,
  PoolTask,
  PoolTaskResult,
  ScreenTask,
  ScreenTaskResult,
  ScreensTaskResult,
  TaskSource,
} from './tasks.js';

/**
 * Screens of markets with at least this many symbols go to the pool. Measured (npm run
 * bench, "inline vs pool", 2 cores): one screen is always faster inline (ashare's 3,000
 * rows: 6 µs inline, ~140 µs through the pool), and screens/s never rose with the pool
 * here; what the pool buys is serving-thread time: a pooled screen costs that thread
 * less than an inline one above ~18,000–22,000 rows, which helps where a core is free
 * for the worker. Today's largest market has 3,000 symbols. Above the threshold a route
 * answers asynchronously, and uWebSockets.js closes a connection that pipelines a request
 * behind a pending answer (uWS #277): another reason to keep the common path inline.
 */
export const DEFAULT_MIN_SCREEN_ROWS = 20_000;

/** Default workers: one per core but the one serving HTTP, at least one. */
export const defaultPoolThreads = (): number => Math.max(1, availableParallelism() - 1);

/**
 * Runs screens and as-of derivations on worker threads. For screens a worker attaches a
 * Dataset's snapshot columns the first time it sees the version (one extra round trip per
 * worker and version); after that only parameters go out and the page's positions come back.
 *
 * Adjustments stay inline: the largest there is (a symbol's whole daily history, 3,652
 * rows × 4 prices, qfq) takes ~68 µs, half of a pool round trip (~135 µs measured by the
 * bench's inline-vs-pool table), and its rendering, the costly part, is cached per chunk.
 */
export class KernelPool {
  private started: Piscina<PoolTask, PoolTaskResult> | null = null;

  /** Keys of the Datasets served now (`Dataset.origin`): a worker lets go of any other it opened. */
  private live: string[] = [];

  /**
   * @param sourceModule the URL of a module each worker imports to open a Dataset with an
   *   origin (tasks.ts SourceOpener): the loaders' edition opener; without it, columns are posted.
   */
  constructor(
    readonly threads = defaultPoolThreads(),
    private readonly sourceModule?: string,
    /** Each worker's V8 limits (the opener of `sourceModule` may need its own: layout.ts PART_READER_LIMITS). */
    private readonly resourceLimits?: ResourceLimits,
  ) {}

  /**
   * Starts the workers (each loads its modules): at the first task, or when called. A server calls it
   * once it serves, so that its start has the machine's other core to itself and does not load
   * Piscina (~20 ms of requires).
   */
  start(): void {
    void this.piscina;
  }

  private get piscina(): Piscina<PoolTask, PoolTaskResult> {
    if (this.started !== null) return this.started;
    const { Piscina } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    return (this.started = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Infinity, // keep attached versions warm
      workerData: { sourceModule: this.sourceModule },
      resourceLimits: this.resourceLimits,
    }));
  }

  /** The Datasets served now, by `origin.key`: workers close the others they opened, before their next task. */
  setLive(keys: readonly string[]): void {
    this.live = [...keys];
  }

  private sourceOf(dataset: Dataset): TaskSource | undefined {
    const origin = dataset.origin;
    return origin === undefined ? undefined : { key: origin.key, ref: origin.ref, live: this.live };
  }

  async screen(dataset: Dataset, market: Market, q: ScreenQuery, signal?: AbortSignal): Promise<ScreenResult> {
    const task: ScreenTask = {
      kind: 'screen',
      version: instanceKey(dataset),
      source: this.sourceOf(dataset),
      market,
      bounds: [...q.bounds].map(([column, b]) => [column, b.min, b.max]),
      sort: q.sort,
      descending: q.descending,
      offset: q.offset,
      limit: q.limit,
    };
    let result = (await this.piscina.run(task, { signal })) as ScreenTaskResult;
    if (!result.attached)
      result = (await this.piscina.run({ ...task, attach: tablesOf(dataset) }, { signal })) as ScreenTaskResult;
    if (!result.attached) throw new Error('pool worker did not attach the dataset');
    return { total: result.total, rows: result.rows };
  }

  /**
   * A screen of the Dataset `origin` names, which a worker opens itself: what another thread
   * (a serving thread, which cannot post its Dataset) asks of the pool with only the origin.
   */
  async screenAt(origin: DatasetOrigin, market: Market, q: ScreenQuery, signal?: AbortSignal): Promise<ScreenResult> {
    const task: ScreenTask = {
      kind: 'screen',
      version: origin.key,
      source: { key: origin.key, ref: origin.ref, live: this.live },
      market,
      bounds: [...q.bounds].map(([column, b]) => [column, b.min, b.max]),
      sort: q.sort,
      descending: q.descending,
      offset: q.offset,
      limit: q.limit,
    };
    const result = (await this.piscina.run(task, { signal })) as ScreenTaskResult;
    if (!result.attached) throw new Error('pool worker did not open the dataset');
    return { total: result.total, rows: result.rows };
  }

  /**
   * Many screens of the Dataset `origin` names in one task (a worker opens the Dataset itself and
   * runs them one after another): each screen's answer in the order asked. One round trip for the
   * lot, where a screen alone costs more to send than to run (a new edition's standing screens).
   */
  async screensAt(
    origin: DatasetOrigin,
    asks: readonly { market: Market; q: ScreenQuery }[],
    signal?: AbortSignal,
  ): Promise<ScreenResult[]> {
    const screens = asks.map(({ market, q }) => ({
      market,
      bounds: [...q.bounds].map(([column, b]): [string, number, number] => [column, b.min, b.max]),
      sort: q.sort,
      descending: q.descending,
      offset: q.offset,
      limit: q.limit,
    }));
    const source = { key: origin.key, ref: origin.ref, live: this.live };
    return (await this.piscina.run({ kind: 'screens', source, screens }, { signal })) as ScreensTaskResult;
  }

  /**
   * The snapshot table of `m` as of `asOf` over `symbols` (see deriveSnapshots), its rows
   * split by ranges of symbols: one range per worker and one for this thread, which fills
   * its own while the workers fill theirs. On 2 cores there is one worker, and leaving this
   * thread idle would make the pool slower than deriving inline.
   */
  async deriveAsOf(dataset: Dataset, m: MarketData, asOf: number, symbols: Int32Array): Promise<SnapshotTable> {
    const source = this.sourceOf(dataset);
    const size = symbols.length;
    const rows = allocateSnapshotRows(size);
    const parts = this.threads + 1;
    const edge = (p: number): number => Math.round((size * p) / parts);
    const running: Promise<PoolTaskResult>[] = [];
    for (let p = 1; p < parts; p++) {
      const columns = source === undefined ? { klines: m.klines, fundamentals: m.fundamentals } : { source };
      const task: DeriveTask = {
        kind: 'derive',
        market: m.market,
        ...columns,
        asOf,
        symbols,
        from: edge(p),
        to: edge(p + 1),
        out: rows,
      };
      running.push(this.piscina.run(task));
    }
    deriveRows(m.market, m.klines, m.fundamentals, asOf, symbols, 0, edge(1), rows);
    await Promise.all(running);
    return withScreenOrders(size, rows, asOf);
  }

  /** deriveAsOf for the markets of `dataset` (as the as-of cache calls it). */
  deriverFor(dataset: Dataset): (m: MarketData, asOf: number, symbols: Int32Array) => Promise<SnapshotTable> {
    return (m, asOf, symbols) => this.deriveAsOf(dataset, m, asOf, symbols);
  }

  /** Tasks the workers have finished. */
  get completed(): number {
    return this.started?.completed ?? 0;
  }

  /** Screens waiting for a free worker. */
  get queueSize(): number {
    return this.started?.queueSize ?? 0;
  }

  close(): Promise<void> {
    return this.started?.destroy() ?? Promise.resolve();
  }
}

const instances = new WeakMap<Dataset, string>();
let instanceCount = 0;

/**
 * Workers key attached tables by Dataset instance, not version text: a reload back to a
 * version seen before is a new Dataset with new memory, and the old one must be let go.
 */
function instanceKey(dataset: Dataset): string {
  let key = instances.get(dataset);
  if (key === undefined) instances.set(dataset, (key = `${dataset.version}#${++instanceCount}`));
  return key;
}

function tablesOf(dataset: Dataset): AttachedMarkets {
  const tables: AttachedMarkets = {};
  for (const market of MARKETS) tables[market] = dataset.markets[market].snapshots;
  return tables;
}
