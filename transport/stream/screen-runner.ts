// Where standing screens run: on the kernel pool, each distinct screen once per edition however many
// sockets (on however many serving threads) stand on it; inline where there is no pool.

import type { Dataset, DatasetOrigin } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import type { KernelPool } from '../../engine/pool/pool.js';
import { screen, type ScreenQuery, type ScreenResult } from '../../engine/queries/screen.js';

/** Runs the screen `q` over the market's own snapshot table of a Dataset. */
export interface ScreenRunner {
  run(dataset: Dataset, market: Market, q: ScreenQuery): Promise<ScreenResult>;
}

/** A screen's query as one text: the same text is the same page of the same table. */
export function screenQueryKey(market: Market, q: ScreenQuery): string {
  const bounds = [...q.bounds].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let key = `${market}|${q.sort}|${q.descending ? 'desc' : 'asc'}|${q.offset}|${q.limit}`;
  for (const [column, { min, max }] of bounds) key += `|${column}:${min}:${max}`;
  return key;
}

/** A screen query as posted between threads (a Map does not survive being posted as itself in every runtime; arrays do). */
export interface ScreenQueryMessage {
  bounds: [column: string, min: number, max: number][];
  sort: string;
  descending: boolean;
  offset: number;
  limit: number;
}

export const screenQueryMessage = (q: ScreenQuery): ScreenQueryMessage => ({
  bounds: [...q.bounds].map(([column, b]) => [column, b.min, b.max]),
  sort: q.sort,
  descending: q.descending,
  offset: q.offset,
  limit: q.limit,
});

export const screenQueryOf = (m: ScreenQueryMessage): ScreenQuery => ({
  bounds: new Map(m.bounds.map(([column, min, max]) => [column, { min, max }])),
  sort: m.sort,
  descending: m.descending,
  offset: m.offset,
  limit: m.limit,
});

/** On this thread, at once (tests and a server without a pool). */
export const INLINE_SCREENS: ScreenRunner = {
  run: (dataset, market, q) => Promise.resolve(screen(dataset.markets[market].snapshots, q)),
};

/** Editions whose runs are remembered: the served one and the one before, while threads switch between them. */
const KEEP_EDITIONS = 2;

/** A screen waiting for this turn's batch. */
interface Waiting {
  market: Market;
  q: ScreenQuery;
  resolve(result: ScreenResult): void;
  reject(error: unknown): void;
}

/**
 * Screens on the kernel pool, each distinct (edition, market, query) run once: the serving
 * threads ask this one with the edition's origin (`runAt`), this thread with its Dataset
 * (`run`), and every ask of a screen already run or running gets the same promise. The screens
 * asked in one turn of the event loop (a new edition's standing screens) go to the workers in
 * one task per worker: a screen alone costs more to send than to run (measured by the bench's
 * stream part), a batch costs one round trip.
 */
export class PooledScreens implements ScreenRunner {
  /** Edition → query key → its run. Editions in the order first asked. */
  private readonly runs = new Map<string, Map<string, Promise<ScreenResult>>>();
  /** Datasets made in memory (no origin) are told apart by instance. */
  private readonly instances = new WeakMap<Dataset, string>();
  private instanceCount = 0;
  /** Screens asked this turn, by edition (its origin), sent together at the turn's end. */
  private readonly batch = new Map<string, { origin: DatasetOrigin; waiting: Waiting[] }>();
  private flushing = false;
  /** Screens sent to the pool (a remembered one asked again is not counted), and tasks that carried them. */
  ran = 0;
  tasks = 0;

  constructor(private readonly kernels: KernelPool) {}

  run(dataset: Dataset, market: Market, q: ScreenQuery): Promise<ScreenResult> {
    const origin = dataset.origin;
    if (origin !== undefined) return this.runAt(origin, market, q);
    let edition = this.instances.get(dataset);
    if (edition === undefined) this.instances.set(dataset, (edition = `memory#${++this.instanceCount}`));
    return this.remembered(edition, market, q, () => ((this.tasks += 1), this.kernels.screen(dataset, market, q)));
  }

  /** The screen over the edition `origin` names (a pool worker opens it itself). */
  runAt(origin: DatasetOrigin, market: Market, q: ScreenQuery): Promise<ScreenResult> {
    return this.remembered(origin.key, market, q, () => this.batched(origin, market, q));
  }

  private remembered(
    edition: string,
    market: Market,
    q: ScreenQuery,
    start: () => Promise<ScreenResult>,
  ): Promise<ScreenResult> {
    let runs = this.runs.get(edition);
    if (runs === undefined) {
      this.runs.set(edition, (runs = new Map()));
      for (const old of this.runs.keys()) if (this.runs.size > KEEP_EDITIONS) this.runs.delete(old); // oldest first
    }
    const key = screenQueryKey(market, q);
    let run = runs.get(key);
    if (run === undefined) {
      this.ran++;
      run = start();
      runs.set(key, run);
      run.catch(() => runs.delete(key)); // a failed run is tried again by the next ask
    }
    return run;
  }

  /** Joins this turn's batch of `origin`'s screens. */
  private batched(origin: DatasetOrigin, market: Market, q: ScreenQuery): Promise<ScreenResult> {
    return new Promise((resolve, reject) => {
      let entry = this.batch.get(origin.key);
      if (entry === undefined) this.batch.set(origin.key, (entry = { origin, waiting: [] }));
      entry.waiting.push({ market, q, resolve, reject });
      if (!this.flushing) (this.flushing = true), setImmediate(() => this.flush());
    });
  }

  /** Sends each edition's waiting screens as one task per worker (fewer when there are few). */
  private flush(): void {
    this.flushing = false;
    const batches = [...this.batch.values()];
    this.batch.clear();
    for (const { origin, waiting } of batches) {
      const parts = Math.min(this.kernels.threads, waiting.length);
      const size = Math.ceil(waiting.length / parts);
      for (let from = 0; from < waiting.length; from += size) {
        const part = waiting.slice(from, from + size);
        this.tasks++;
        this.kernels.screensAt(origin, part).then(
          (results) => part.forEach((w, k) => w.resolve(results[k])),
          (error: unknown) => part.forEach((w) => w.reject(error)),
        );
      }
    }
  }
}
