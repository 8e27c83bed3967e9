// Inline vs pool screens at several table sizes: latency of one screen, main-thread cost, throughput under load, crossover.

import { POOL_SOURCE_MODULE } from '../../loaders/edition/open-edition.js';
import { performance } from 'node:perf_hooks';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { DEFAULT_MIN_SCREEN_ROWS, KernelPool } from '../../engine/pool/pool.js';
import { screen } from '../../engine/queries/screen.js';
import { datasetWith, IN_FLIGHT, type PoolSize, REQUEST_WORK_US, syntheticTable } from '../cases/pool.js';
import { SCREEN_QUERY } from '../cases/inputs.js';
import { measureCase, type MicroOptions } from './measure.js';
import { alignedTable, us } from './table.js';

export interface PoolOptions {
  micro: MicroOptions;
  /** Time of each pool latency run and of each throughput run, ms. */
  runMs: number;
  /** Pool workers (default: the pool's own default, cores − 1). */
  threads?: number;
}

export interface PoolPoint {
  name: string;
  rows: number;
  matched: number;
  /** One screen, median and p99 µs: inline, and a round trip to the pool. */
  inlineUs: number;
  inlineP99Us: number;
  poolUs: number;
  poolP99Us: number;
  /** Screens/s with IN_FLIGHT requests in flight, each also costing REQUEST_WORK_US of main-thread work. */
  inlineRps: number;
  poolRps: number;
  /**
   * Main-thread busy µs per screen in those runs (event-loop utilisation, less the request
   * work): the walk itself inline; dispatch, reply and promise bookkeeping on the pool.
   */
  inlineMainUs: number;
  poolMainUs: number;
}

export interface PoolResult {
  threads: number;
  requestWorkUs: number;
  inFlight: number;
  points: PoolPoint[];
  /** Rows where the pool's throughput passes inline's by PAYS_OFF (interpolated), or null if it never does in the sizes run. */
  throughputCrossoverRows: number | null;
  /** Rows where an inline screen costs the main thread as much as handing it to the pool (interpolated), or null. */
  mainThreadCrossoverRows: number | null;
  defaultMinScreenRows: number;
  verdict: string;
}

/** Pool screens/s over inline screens/s that counts as paying off: 5 % above, beyond run-to-run noise. */
const PAYS_OFF = 1.05;

function spin(micros: number): void {
  const until = performance.now() + micros / 1000;
  while (performance.now() < until);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Sequential round trips: each screen waits for the previous one, so this is the latency of one screen. */
async function poolLatency(
  pool: KernelPool,
  dataset: Dataset,
  runMs: number,
  minSamples: number,
): Promise<{ us: number; p99Us: number }> {
  for (let k = 0; k < 20; k++) await pool.screen(dataset, 'ashare', SCREEN_QUERY); // attach + warm
  const samples: number[] = [];
  const end = performance.now() + runMs;
  while (performance.now() < end || samples.length < minSamples) {
    const t0 = performance.now();
    await pool.screen(dataset, 'ashare', SCREEN_QUERY);
    samples.push((performance.now() - t0) * 1000);
  }
  return { us: median(samples), p99Us: quantile(samples, 0.99) };
}

/**
 * Screens/s with IN_FLIGHT concurrent requests, each spending REQUEST_WORK_US on the main
 * thread before its screen, and the main thread's busy µs per screen beyond that work.
 */
async function throughput(runMs: number, screenOnce: () => unknown): Promise<{ rps: number; mainUs: number }> {
  let done = 0;
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const end = t0 + runMs;
  const client = async (): Promise<void> => {
    do {
      spin(REQUEST_WORK_US);
      await screenOnce();
      done++;
    } while (performance.now() < end);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, client));
  const seconds = (performance.now() - t0) / 1000;
  const elu = performance.eventLoopUtilization(elu0);
  return { rps: done / seconds, mainUs: Math.max(0, (elu.active * 1000) / done - REQUEST_WORK_US) };
}

/** x where y crosses `level` between two measured points, interpolated on log(rows). */
function crossing(points: PoolPoint[], y: (p: PoolPoint) => number, level: number): number | null {
  for (let k = 0; k < points.length; k++) {
    if (y(points[k]) <= level) continue;
    if (k === 0) return points[0].rows; // already past it at the smallest size
    const [a, b] = [points[k - 1], points[k]];
    const t = (level - y(a)) / (y(b) - y(a));
    return Math.round(Math.exp(Math.log(a.rows) + t * (Math.log(b.rows) - Math.log(a.rows))));
  }
  return null;
}

const round2 = (n: number): number => {
  const p = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.round(n / p) * p;
};

/** Measures every size; the pool is started here and destroyed before returning. */
export async function poolCrossover(
  dataset: Dataset,
  sizes: PoolSize[],
  o: PoolOptions,
  log: (line: string) => void = () => {},
): Promise<PoolResult> {
  const pool = new KernelPool(o.threads, POOL_SOURCE_MODULE);
  const points: PoolPoint[] = [];
  try {
    for (const size of sizes) {
      const real = dataset.markets.ashare.snapshots;
      const table = size.rows === null ? real : syntheticTable(real, size.rows);
      const ds = size.rows === null ? dataset : datasetWith(table, `bench-synthetic-${size.rows}`);
      log(`pool ${points.length + 1}/${sizes.length}: ${size.name} (${table.size.toLocaleString('en-US')} rows)`);
      const matched = screen(table, SCREEN_QUERY).total;
      const inline = (
        await measureCase(
          {
            group: 'pool',
            name: size.name,
            detail: '',
            variants: [{ name: 'inline', run: () => screen(table, SCREEN_QUERY) }],
            baseline: 'inline',
            answer: (x) => x,
          },
          o.micro,
        )
      ).variants[0];
      const onPool = await poolLatency(pool, ds, o.runMs, o.micro.minSamples);
      const inlineRun = await throughput(o.runMs, () => screen(table, SCREEN_QUERY));
      const poolRun = await throughput(o.runMs, () => pool.screen(ds, 'ashare', SCREEN_QUERY));
      points.push({
        name: size.name,
        rows: table.size,
        matched,
        inlineUs: inline.us,
        inlineP99Us: inline.p99Us,
        poolUs: onPool.us,
        poolP99Us: onPool.p99Us,
        inlineRps: inlineRun.rps,
        poolRps: poolRun.rps,
        inlineMainUs: inlineRun.mainUs,
        poolMainUs: poolRun.mainUs,
      });
    }
  } finally {
    await pool.close();
  }
  points.sort((a, b) => a.rows - b.rows);
  const throughputCrossoverRows = crossing(points, (p) => p.poolRps / p.inlineRps, PAYS_OFF);
  const mainThreadCrossoverRows = crossing(points, (p) => p.inlineMainUs / p.poolMainUs, 1);
  return {
    threads: pool.threads,
    requestWorkUs: REQUEST_WORK_US,
    inFlight: IN_FLIGHT,
    points,
    throughputCrossoverRows,
    mainThreadCrossoverRows,
    defaultMinScreenRows: DEFAULT_MIN_SCREEN_ROWS,
    verdict: verdict(points, throughputCrossoverRows, mainThreadCrossoverRows),
  };
}

const n = (x: number): string => x.toLocaleString('en-US');

/** Whether DEFAULT_MIN_SCREEN_ROWS sits where the measurement puts the crossovers (within a factor of two), and what the data supports. */
function verdict(points: PoolPoint[], throughputAt: number | null, mainAt: number | null): string {
  const d = n(DEFAULT_MIN_SCREEN_ROWS);
  const fits = (x: number): boolean => x / 2 <= DEFAULT_MIN_SCREEN_ROWS && DEFAULT_MIN_SCREEN_ROWS <= x * 2;
  const last = n(points.at(-1)!.rows);
  const parts: string[] = [];
  parts.push(
    points.every((p) => p.poolUs >= p.inlineUs)
      ? 'one screen: always faster inline (the pool adds its round trip to the same walk)'
      : 'one screen: the pool was faster at the largest sizes',
  );
  if (throughputAt === null)
    parts.push(
      `screens/s: the pool never served ≥ 5 % more than inline up to ${last} rows, so no threshold is supported by throughput here`,
    );
  else if (points[0].poolRps > points[0].inlineRps)
    parts.push(`screens/s: the pool already served more at ${n(points[0].rows)} rows, the smallest size run`);
  else
    parts.push(
      `screens/s: the pool serves ≥ 5 % more above ≈ ${n(round2(throughputAt))} rows (${fits(throughputAt) ? 'DEFAULT_MIN_SCREEN_ROWS fits it' : `DEFAULT_MIN_SCREEN_ROWS (${d}) does not fit it`})`,
    );
  if (mainAt !== null) {
    parts.push(
      `main-thread time: a pooled screen costs the serving thread less than an inline one above ≈ ${n(round2(mainAt))} rows ` +
        (fits(mainAt)
          ? `(DEFAULT_MIN_SCREEN_ROWS, ${d}, fits it)`
          : `(DEFAULT_MIN_SCREEN_ROWS, ${d}, does not fit it: the data supports ≈ ${n(round2(mainAt))} where a core is free for the worker)`),
    );
  } else parts.push(`main-thread time: inline was cheaper at every size up to ${last} rows`);
  return parts.join('; ');
}

export function formatPoolTable(r: PoolResult): string {
  const rows = r.points.map((p) => [
    p.name,
    p.rows.toLocaleString('en-US'),
    p.matched.toLocaleString('en-US'),
    us(p.inlineUs),
    us(p.inlineP99Us),
    us(p.poolUs),
    us(p.poolP99Us),
    `${(p.poolUs / p.inlineUs).toFixed(2)}×`,
    Math.round(p.inlineRps).toLocaleString('en-US'),
    Math.round(p.poolRps).toLocaleString('en-US'),
    `${(p.poolRps / p.inlineRps).toFixed(2)}×`,
    us(p.inlineMainUs),
    us(p.poolMainUs),
  ]);
  return alignedTable(
    [
      'table',
      'rows',
      'match',
      'inline µs',
      'p99',
      'pool µs',
      'p99',
      'pool/inline',
      'inline screens/s',
      'pool screens/s',
      'pool/inline',
      'main µs/screen inline',
      'pool',
    ],
    rows,
    [0],
  );
}
