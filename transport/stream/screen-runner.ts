// Where standing screens run: on the kernel pool, each distinct screen once per edition however many
// sockets (on however many serving threads) stand on it; inline where there is no pool.

import type { Dataset, DatasetOrigin } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import type { KernelPool } from '../../engine/pool/pool.js';
import { screen, type ScreenQuery, type ScreenResult } from '../../engine/queries/screen.js';

/**
 * Runs the screen `q` over the market's own snapshot table of a Dataset. Each run that resolved is
 * released once, when its asker no longer stands on it: a runner that shares runs keeps one while
 * some asker stands on it, and no longer.
 */
export interface ScreenRunner {
  run(dataset: Dataset, market: Market, q: ScreenQuery): Promise<ScreenResult>;
  release(dataset: Dataset, market: Market, q: ScreenQuery): void;
  /** Runs kept now, running or stood on (a runner that shares them; /metrics' mdq_stream_screen_runs). */
  readonly kept?: number;
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
  release: () => {},
};

/** Editions whose runs are remembered at most: the served one and the one before, while threads switch between them. */
const KEEP_EDITIONS = 2;

/** One distinct screen's run on one edition, and how many of its asks have not released it yet. */
interface Run {
  readonly result: Promise<ScreenResult>;
  askers: number;
  settled: boolean;
}

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
 *
 * A run is kept while it runs and, once resolved, while some standing screen (on any thread)
 * stands on it: every ask counts, every release uncounts, and the last release lets it go. So
 * what is remembered is bounded by the screens standing now, however many a client subscribes
 * and leaves; a failed run is forgotten at once (its askers hold nothing, the next ask runs it).
 */
export class PooledScreens implements ScreenRunner {
  /** Edition → query key → its run. Editions in the order first asked. */
  private readonly runs = new Map<string, Map<string, Run>>();
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

  release(dataset: Dataset, market: Market, q: ScreenQuery): void {
    const edition = dataset.origin?.key ?? this.instances.get(dataset);
    if (edition !== undefined) this.forget(edition, market, q);
  }

  /** `release` of a serving thread's ask, by the edition's origin. */
  releaseAt(origin: DatasetOrigin, market: Market, q: ScreenQuery): void {
    this.forget(origin.key, market, q);
  }

  /** Runs kept now, running or stood on, over every edition. */
  get kept(): number {
    let n = 0;
    for (const runs of this.runs.values()) n += runs.size;
    return n;
  }

  private forget(edition: string, market: Market, q: ScreenQuery): void {
    const runs = this.runs.get(edition);
    const key = screenQueryKey(market, q);
    const run = runs?.get(key);
    if (run !== undefined && --run.askers <= 0 && run.settled) runs!.delete(key);
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
      const made: Run = { result: start(), askers: 0, settled: false };
      const edited = runs;
      made.result.then(
        () => {
          made.settled = true;
          if (made.askers <= 0 && edited.get(key) === made) edited.delete(key);
        },
        // A failed run is tried again by the next ask; its askers were told, and hold nothing.
        () => edited.get(key) === made && edited.delete(key),
      );
      runs.set(key, (run = made));
    }
    run.askers++;
    return run.result;
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
