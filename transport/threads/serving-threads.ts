// The main thread's side of THREADS ≥ 2: starts the other serving threads, tells each the new
// edition as the main thread takes it (each opens it itself) and hands each a new key table, runs
// their standing screens, collects their figures, drains them.

import { MessageChannel, type ResourceLimits, Worker } from 'node:worker_threads';
import type { DatasetOrigin } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import type { KeyRecord } from '../../engine/plans.js';
import type { ScreenQuery, ScreenResult } from '../../engine/queries/screen.js';
import { screenQueryOf } from '../stream/screen-runner.js';
import type { MeterState } from '../admin/meter.js';
import type { RequestStorage } from '../metrics/request-metrics.js';
import { relayForwards } from './forward-relay.js';
import type { FromThread, ThreadStart, ToThread } from './messages.js';

/** The serving thread's entry point: serving-thread.js beside main.js (from dist/transport/threads/). */
const ENTRY = new URL('../../serving-thread.js', import.meta.url);
/**
 * A serving thread's young generation (V8's default lets it grow to 32 MB, both halves of it
 * resident once a request burst has filled them). 8 MB keeps request garbage to 4 MB between
 * scavenges, which free young Buffers' memory too. Measured on the memory part (THREADS=2,
 * 200,000 requests): the thread's new space 32 -> 8 MB, server CPU per request unchanged
 * (1,406 us against 1,397-1,458 in other runs).
 */
const SERVING_YOUNG_GENERATION_MB = 8;

interface Thread {
  worker: Worker;
  /** The thread's request figures (shared memory it counts into). */
  requests: RequestStorage | null;
  /** Its stream figures (shared memory). */
  streams: Float64Array | null;
  meter: MeterState | null;
  /** Version this thread serves (its last `swapped`), and those it has closed since it started. */
  version: string;
  released: Set<string>;
  exited: Promise<void>;
}

/** This thread's loopback listener, where the other threads' dashboard and /metrics requests are answered, and the token that vouches for them. */
export interface ForwardTarget {
  listenPort: number;
  token: string;
}

/** What the main thread does when a serving thread fails (logs and exits: a lost thread would drop its share of connections). */
export type ThreadFailure = (thread: number, message: string) => void;

/** Runs a serving thread's standing screens on the main thread's pool, and lets a run go once it no longer stands on it (PooledScreens). */
export interface ScreensAt {
  runAt(origin: DatasetOrigin, market: Market, q: ScreenQuery): Promise<ScreenResult>;
  releaseAt(origin: DatasetOrigin, market: Market, q: ScreenQuery): void;
}

export class ServingThreads {
  private readonly threads: Thread[] = [];
  private readonly waiting = new Map<number, Set<(message: FromThread) => void>>();
  private draining = false;
  /** Shared with every thread (ThreadStart.drainFlag). */
  private readonly drainFlag = new Int32Array(new SharedArrayBuffer(4));

  private constructor(
    private readonly onFailure: ThreadFailure,
    private readonly screens: ScreensAt | null,
    /** Each thread's V8 limits besides its young generation (V8's defaults without). */
    private readonly resourceLimits: ResourceLimits,
  ) {}

  /**
   * Starts `count` serving threads with `start` (their `thread` numbered 1…) and resolves
   * once every one listens. `onFailure` hears of a thread that fails or exits unasked later.
   */
  static async start<S>(
    count: number,
    start: Omit<ThreadStart<S>, 'thread' | 'forwardPort' | 'forwardSignal' | 'drainFlag'>,
    forward: ForwardTarget,
    onFailure: ThreadFailure,
    options: { screens?: ScreensAt | null; resourceLimits?: ResourceLimits } = {},
  ): Promise<ServingThreads> {
    const pool = new ServingThreads(onFailure, options.screens ?? null, options.resourceLimits ?? {});
    const listening: Promise<void>[] = [];
    for (let i = 1; i <= count; i++) {
      const channel = new MessageChannel();
      const forwardSignal = new SharedArrayBuffer(4);
      relayForwards(channel.port1, forwardSignal, forward.listenPort, forward.token);
      channel.port1.unref(); // the relay must not keep the process alive
      listening.push(
        pool.spawn({
          ...start,
          thread: i,
          forwardPort: channel.port2,
          forwardSignal,
          drainFlag: pool.drainFlag.buffer as SharedArrayBuffer,
        }),
      );
    }
    try {
      await Promise.all(listening);
    } catch (error) {
      pool.draining = true;
      await Promise.all(pool.threads.map((t) => t.worker.terminate()));
      throw error;
    }
    return pool;
  }

  private spawn<S>(data: ThreadStart<S>): Promise<void> {
    const index = this.threads.length;
    // The thread's stdout reaches this process's stdout one write at a time: log lines stay whole.
    const worker = new Worker(ENTRY, {
      workerData: data,
      transferList: [data.forwardPort],
      resourceLimits: { ...this.resourceLimits, maxYoungGenerationSizeMb: SERVING_YOUNG_GENERATION_MB },
    });
    const thread: Thread = {
      worker,
      requests: null,
      streams: null,
      meter: null,
      version: data.edition.version,
      released: new Set(),
      exited: new Promise((resolve) => worker.once('exit', () => resolve())),
    };
    this.threads.push(thread);
    return new Promise((resolve, reject) => {
      let up = false;
      worker.on('message', (m: FromThread) => {
        if (m.type === 'listening')
          (up = true), (thread.requests = m.requests), (thread.streams = m.streams), resolve();
        else if (m.type === 'failed') reject(new Error(`serving thread ${data.thread}: ${m.message}`));
        else this.heard(index, m);
      });
      worker.on('error', (error) => (up ? this.onFailure(data.thread, error.stack ?? error.message) : reject(error)));
      worker.on('exit', (code) =>
        up
          ? this.draining || this.onFailure(data.thread, `exited with ${code}`)
          : reject(new Error(`serving thread ${data.thread} exited with ${code} before listening`)),
      );
    });
  }

  private heard(index: number, m: FromThread): void {
    const t = this.threads[index];
    if (m.type === 'screen') return this.runScreen(t, m);
    if (m.type === 'screen-release') return this.screens?.releaseAt(m.origin, m.market, screenQueryOf(m.q));
    if (m.type === 'figures') t.meter = m.meter;
    else if (m.type === 'swapped') t.version = m.version;
    else if (m.type === 'released') t.released.add(m.version);
    for (const wake of this.waiting.get(index) ?? []) wake(m);
  }

  /** A thread's standing screen, on this thread's pool; the answer (or why there is none) posted back. */
  private runScreen(t: Thread, m: Extract<FromThread, { type: 'screen' }>): void {
    const answer = (a: Omit<Extract<ToThread, { type: 'screen-result' }>, 'type' | 'id'>): void =>
      t.worker.postMessage({ type: 'screen-result', id: m.id, ...a } satisfies ToThread);
    if (this.screens === null) return answer({ error: 'no pool on the main thread' });
    this.screens.runAt(m.origin, m.market, screenQueryOf(m.q)).then(
      (r) => answer({ total: r.total, rows: Array.from(r.rows) }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private post(m: ToThread): void {
    for (const t of this.threads) t.worker.postMessage(m);
  }

  get count(): number {
    return this.threads.length;
  }

  /** The version each thread serves now. */
  versions(): string[] {
    return this.threads.map((t) => t.version);
  }

  /** Every thread opens edition `version` itself and serves it; resolves once all of them do. */
  publish(version: string): Promise<void> {
    const swapped = this.heardFromAll('swapped', 60_000, (t) => t.version === version);
    this.post({ type: 'edition', version });
    return swapped;
  }

  /** Resolves once every thread has closed edition `version` (none of its requests reads it any longer). */
  released(version: string): Promise<void> {
    return this.heardFromAll('released', 24 * 3600_000, (t) => t.released.has(version));
  }

  /** Whether the usage counts reach the state folder, for every thread's /readyz. */
  setDurable(durable: boolean): void {
    this.post({ type: 'durable', durable });
  }

  /** The key table the main thread's guard just took, with its slot assignments. */
  setKeys(keys: KeyRecord[], assignments: [string, number][]): void {
    this.post({ type: 'keys', keys, assignments });
  }

  /**
   * Resolves once every thread sent its `type` message (or ended, or `timeoutMs` passed); with
   * `done`, once it holds for every thread (checked now, and at each such message).
   */
  private heardFromAll(type: FromThread['type'], timeoutMs: number, check?: (t: Thread) => boolean): Promise<void> {
    return Promise.all(
      this.threads.map(
        (t, index) =>
          new Promise<void>((resolve) => {
            if (check?.(t)) return resolve();
            const waiters = this.waiting.get(index) ?? new Set();
            this.waiting.set(index, waiters);
            const finish = (): void => {
              waiters.delete(wake);
              clearTimeout(timer);
              resolve();
            };
            const wake = (m: FromThread): void =>
              void (m.type === type && (check === undefined || check(t)) && finish());
            const timer = setTimeout(finish, timeoutMs);
            waiters.add(wake);
            void t.exited.then(finish);
          }),
      ),
    ).then(() => undefined);
  }

  /** The threads' request figures, as they are now (their shared counters). */
  requestFigures(): RequestStorage[] {
    return this.threads.flatMap((t) => (t.requests === null ? [] : [t.requests]));
  }

  /** The threads' stream figures, as they are now (shared memory). */
  streamFigures(): Float64Array[] {
    return this.threads.flatMap((t) => (t.streams === null ? [] : [t.streams]));
  }

  /** The threads' latest meters. */
  meters(): MeterState[] {
    return this.threads.flatMap((t) => (t.meter === null ? [] : [t.meter]));
  }

  /** Every thread answers 503 shutting_down from now on (the drain itself follows with `drain`). */
  refuseNow(): void {
    Atomics.store(this.drainFlag, 0, 1);
  }

  /** Drains every thread (503 shutting_down, requests in flight answered), then ends them. */
  async drain(): Promise<void> {
    this.refuseNow();
    this.draining = true;
    const drained = this.heardFromAll('drained', 60_000); // the process's own drain limit ends it sooner
    this.post({ type: 'drain' });
    await drained;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
