// The built-in demo snapshot: a seeded, deterministic snapshot folder (the format operators load) of synthetic data.

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { daysFromCivil, formatDate } from '../../engine/calendar/days.js';
import { MARKETS, type Market } from '../../engine/markets.js';
import { startProgress, type Progress } from '../progress.js';
import { DEMO_END, historyStart } from './calendars.js';
import { macroCsv } from './macro.js';
import { planMarket, type PlanOptions } from './plan.js';
import type { WorkerJob, WorkerMessage } from './worker.js';

/** Seed of the built-in demo. */
export const DEFAULT_SEED = 20261030;

/** Options of `generateDemoSnapshot`; the output is a pure function of seed, symbolScale and years. */
export interface DemoOptions {
  /** Any 32-bit integer (default DEFAULT_SEED). */
  seed?: number;
  /** (0, 1]: share of each market's symbols to keep, at least one each (default 1). */
  symbolScale?: number;
  /** Years of history ending 2026-10-30, fractions allowed, at most 16 (default 10). */
  years?: number;
  /** Report progress on stderr (default true). */
  progress?: boolean;
}

/** What a run produced. */
export interface DemoResult {
  rows: number;
  seconds: number;
  bytes: number;
}

function checkedOptions(opts: DemoOptions): PlanOptions {
  const { seed = DEFAULT_SEED, symbolScale = 1, years = 10 } = opts;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!(symbolScale > 0 && symbolScale <= 1)) throw new RangeError(`symbolScale must be in (0, 1], got ${symbolScale}`);
  if (!(years > 0 && years <= 16)) throw new RangeError(`years must be in (0, 16], got ${years}`);
  return { seed: seed | 0, symbolScale, years };
}

/** Splits markets over `n` workers, largest first onto the least loaded (ashare alone vs the rest on 2). */
function balance(rows: ReadonlyMap<Market, number>, n: number): Market[][] {
  const groups = Array.from({ length: n }, () => ({ load: 0, markets: [] as Market[] }));
  for (const m of [...MARKETS].sort((a, b) => rows.get(b)! - rows.get(a)!)) {
    const g = groups.reduce((min, x) => (x.load < min.load ? x : min));
    g.load += rows.get(m)!;
    g.markets.push(m);
  }
  return groups.filter((g) => g.markets.length > 0).map((g) => g.markets);
}

function runWorker(job: WorkerJob, progress: Progress | undefined): { done: Promise<number>; worker: Worker } {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: job });
  const done = new Promise<number>((ok, fail) => {
    let bytes = -1;
    worker.on('message', (msg: WorkerMessage) => {
      if ('rows' in msg) progress?.add(msg.rows);
      else bytes = msg.bytes;
    });
    worker.on('error', fail);
    worker.on('exit', (code) =>
      bytes >= 0 ? ok(bytes) : fail(new Error(`demo generator worker exited with code ${code}`)),
    );
  });
  return { done, worker };
}

/** True while a process with this pid exists (EPERM: it exists but is not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temp/old siblings of `target` left by runs that were killed (their process is gone). */
function removeStaleSiblings(target: string): void {
  const pattern = new RegExp(`^${basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(tmp|old)-(\\d+)$`);
  for (const name of readdirSync(dirname(target))) {
    const pid = Number(pattern.exec(name)?.[2]);
    if (pid && !alive(pid)) rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}

/**
 * Writes the demo snapshot folder to `outDir`, replacing any folder there only once the new one is
 * complete (it is built in a sibling temp folder and renamed into place). Same options, same bytes.
 */
export async function generateDemoSnapshot(outDir: string, opts: DemoOptions = {}): Promise<DemoResult> {
  const started = performance.now();
  const options = checkedOptions(opts);
  const target = resolve(outDir);
  const tmp = `${target}.tmp-${process.pid}`;
  const rowsByMarket = new Map(MARKETS.map((m) => [m, planMarket(m, options).rows] as const));
  const total = [...rowsByMarket.values()].reduce((a, b) => a + b, 0);
  const progress = opts.progress === false ? undefined : startProgress('demo snapshot', total);

  mkdirSync(dirname(target), { recursive: true });
  removeStaleSiblings(target);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  const runs = balance(rowsByMarket, Math.max(1, Math.min(availableParallelism(), MARKETS.length))).map((markets) =>
    runWorker({ ...options, dir: tmp, markets }, progress),
  );
  try {
    const end = daysFromCivil(DEMO_END.year, DEMO_END.month, DEMO_END.day);
    const macro = macroCsv(options.seed, historyStart(options.years), end);
    const manifest = `${JSON.stringify(
      {
        id: `demo-${formatDate(end)}`,
        created: `${formatDate(end)}T00:00:00Z`, // the data's last day, not the clock: reruns stay byte-identical
        note:
          `SYNTHETIC demo data (seed ${options.seed}, symbol scale ${options.symbolScale}, history ${options.years} y): ` +
          'invented symbols, names, prices, fundamentals and macro figures; not real market data.',
      },
      null,
      2,
    )}\n`;
    writeFileSync(join(tmp, 'macro.csv'), macro);
    writeFileSync(join(tmp, 'manifest.json'), manifest);
    const workerBytes = await Promise.all(runs.map((r) => r.done));
    const bytes = workerBytes.reduce((a, b) => a + b, Buffer.byteLength(macro) + Buffer.byteLength(manifest));

    // Swap in place: the old folder is moved aside first, so outDir is never a half-written snapshot.
    const old = `${target}.old-${process.pid}`;
    rmSync(old, { recursive: true, force: true });
    if (existsSync(target)) renameSync(target, old);
    renameSync(tmp, target);
    rmSync(old, { recursive: true, force: true });
    const summary = progress?.done();
    return { rows: total, seconds: summary?.seconds ?? (performance.now() - started) / 1000, bytes };
  } catch (err) {
    await Promise.allSettled(runs.map((r) => r.worker.terminate()));
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
