// Push over WebSocket (/api/v1/stream): fan-out, memory per idle socket, standing screens on the pool
// against inline, HTTP throughput with 10,000 idle sockets connected against none, and the evening's
// update end to end (a day appended to every market of the full demo, SIGHUP, the last socket).
//
//   node dist/bench/ops/stream.js [--sockets 1000,10000] [--rounds 3] [--screens 1000] [--screen-rounds 3]
//                                 [--http-seconds 5] [--http-rounds 2] [--work DIR]
//                                 [--e2e-sockets 10000] [--e2e-bars-share 0.1] [--e2e-bars-markets ashare,…]
//                                 [--variants klines.csv,day-files] [--parts fanout,screens,http,end-to-end]
//
// fanout: the real server (THREADS=2, its own state under --work) over the fixture snapshot, a load
//   child in its own process holding N sockets (spread over 127.0.0.1, .2, …; every one on
//   `editions`, a tenth also on `bars` "*" of ashare); a SIGHUP onto the other of two folders makes
//   an edition; the fan-out is the time from the server's publish (the earliest serving thread's
//   `stream: edition published` log line) to the last socket's `edition` message. Memory per idle
//   socket: the server's RssAnon with the N sockets welcomed and subscribed, less without any, / N.
// http: wrk (K-lines and a screen, internal key, 16 connections) against that server with 10,000
//   idle sockets connected and with none, alternating; the ratio of req/s.
// screens: 1,000 distinct standing screens (seeded bounds, sorts and pages of the demo's ashare)
//   re-run for one edition on the kernel pool (PooledScreens, cores − 1 workers) and inline, this
//   thread's busy time beside each (event-loop utilisation).
// end-to-end (stream-end-to-end.ts): the server on a working copy of the full demo, --e2e-sockets
//   sockets (every one on `editions`, --e2e-bars-share of them also on `bars` "*" of every market);
//   each round appends the next trading day to every market (to klines.csv, then as day files),
//   sends SIGHUP and reports the reload (SIGHUP → published), the fan-out (published → the last
//   socket's `edition`, and its last `bars`) and SIGHUP → the last socket, the messages checked
//   against the rows appended.
// Prints a table; the JSON goes to bench/results/stream.json. Every child stops by itself.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { defaultPoolThreads, KernelPool } from '../../engine/pool/pool.js';
import type { ScreenQuery } from '../../engine/queries/screen.js';
import { POOL_SOURCE_MODULE } from '../../loaders/edition/open-edition.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { INLINE_SCREENS, PooledScreens, type ScreenRunner } from '../../transport/stream/screen-runner.js';
import { fixtureCopy } from '../../test/helpers/fixture-copy.js';
import { repoint, type ServerProcess, startServerProcess } from '../../test/helpers/server-process.js';
import { DEMO_SNAPSHOT, ensureSnapshot } from '../http/servers.js';
import { prng } from '../cases/seeded.js';
import { MARKETS } from '../../engine/markets.js';
import { type EndToEndFigure, endToEnd, formatEndToEnd, VARIANTS, type Variant } from './stream-end-to-end.js';
import { Load } from './stream-load-parent.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '1000,10000' },
    rounds: { type: 'string', default: '3' },
    screens: { type: 'string', default: '1000' },
    'screen-rounds': { type: 'string', default: '3' },
    'http-seconds': { type: 'string', default: '5' },
    'http-rounds': { type: 'string', default: '2' },
    work: { type: 'string', default: `/tmp/mdq-bench-stream-${process.pid}` },
    'e2e-sockets': { type: 'string', default: '10000' },
    'e2e-bars-share': { type: 'string', default: '0.1' },
    'e2e-bars-markets': { type: 'string', default: MARKETS.join(',') },
    variants: { type: 'string', default: VARIANTS.join(',') },
    parts: { type: 'string', default: 'fanout,screens,http,end-to-end' },
  },
});
const PARTS = new Set(values.parts!.split(','));
const SOCKETS = values.sockets!.split(',').map(Number);
const ROUNDS = Number(values.rounds);
const WORK = values.work!;
const log = (line: string): void => console.error(`[stream] ${line}`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0));

/** RssAnon of `pid`, bytes. */
const rssAnon = (pid: number): number =>
  Number(/RssAnon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

interface FanOut {
  sockets: number;
  connectSeconds: number;
  rssPerSocketBytes: number;
  /** Per round: from the first thread's publish to the first and to the last socket's `edition`, ms. */
  firstMs: number[];
  lastMs: number[];
}

/** The fixture and the fixture with one more ashare day: SIGHUP between them makes an edition each time. */
async function folders(): Promise<{ A: string; B: string; link: string }> {
  const A = await fixtureCopy(join(WORK, 'A'));
  const B = await fixtureCopy(join(WORK, 'B'));
  const day = ['sh600001', 'sz000002', 'sz000003', 'sz000004', 'sz000005', 'sh600006', 'sh600009']
    .map((s) => `${s},2025-03-17,6.30,6.50,6.28,6.45,50000,32000000.00,1`)
    .join('\n');
  await appendFile(join(B, 'ashare/klines.csv'), `${day}\n`);
  const link = join(WORK, 'current');
  await symlink(A, link);
  return { A, B, link };
}

async function fanOut(
  server: ServerProcess,
  key: string,
  f: { A: string; B: string; link: string },
): Promise<FanOut[]> {
  const out: FanOut[] = [];
  let onB = false;
  for (const n of SOCKETS) {
    const before = rssAnon(server.pid);
    log(`${n} sockets: connecting (RssAnon ${(before / 2 ** 20).toFixed(0)} MiB)`);
    const load = new Load([
      '--port',
      String(server.port),
      '--key',
      key,
      '--sockets',
      String(n),
      '--bars-share',
      '0.1',
      '--seconds',
      '900',
    ]);
    const ready = await load.next('ready', 300_000);
    await new Promise((r) => setTimeout(r, 2000)); // settled: idle sockets, nothing in flight
    const after = rssAnon(server.pid);
    const row: FanOut = {
      sockets: n,
      connectSeconds: (ready.ms as number) / 1000,
      rssPerSocketBytes: (after - before) / n,
      firstMs: [],
      lastMs: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      onB = !onB;
      await repoint(f.link, onB ? f.B : f.A);
      const from = server.log.length;
      const loggedFrom = server.logged.length;
      load.send({ type: 'expect' });
      const edition = load.next('edition', 120_000);
      server.signal('SIGHUP');
      const line = await server.waitForLog(/reload: (now serving|unchanged|rejected|failed)/, 120_000, from);
      const version = /now serving (\S+)/.exec(line)?.[1];
      if (version === undefined) throw new Error(line);
      const got = await edition;
      if (got.version !== version) throw new Error(`edition ${got.version}, reload ${version}`);
      const published = server.logged
        .slice(loggedFrom)
        .filter((l) => l.msg?.toString().startsWith('stream: edition published') && l.data_version === version)
        .map((l) => l.published_at as number);
      const t0 = Math.min(...published);
      row.firstMs.push((got.first as number) - t0);
      row.lastMs.push((got.last as number) - t0);
      log(
        `  round ${round + 1}: ${n} sockets, publish → first ${ms(row.firstMs.at(-1)!)} ms, last ${ms(row.lastMs.at(-1)!)} ms (${published.length} threads published)`,
      );
    }
    out.push(row);
    await load.exit();
    await new Promise((r) => setTimeout(r, 1000));
  }
  return out;
}

/** wrk's req/s for `path`. */
function wrk(port: number, key: string, path: string, seconds: number): number {
  const out = execFileSync(
    'wrk',
    ['-t1', '-c16', `-d${seconds}s`, '-H', `X-API-Key: ${key}`, `http://127.0.0.1:${port}${path}`],
    {
      encoding: 'utf8',
    },
  );
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
}

const HTTP_PATHS = ['/api/v1/ashare/klines/sh600001?limit=50', '/api/v1/ashare/screen?limit=5&sort=close'];

interface HttpIdle {
  path: string;
  without: number[];
  withIdle: number[];
  ratio: number;
}

async function httpWithIdle(server: ServerProcess, key: string): Promise<HttpIdle[]> {
  const seconds = Number(values['http-seconds']);
  const rows: HttpIdle[] = HTTP_PATHS.map((path) => ({ path, without: [], withIdle: [], ratio: 0 }));
  const load = new Load(['--port', String(server.port), '--key', key, '--sockets', '10000', '--seconds', '1800']);
  await load.next('ready', 300_000);
  for (let round = 0; round < Number(values['http-rounds']); round++) {
    for (const row of rows) row.withIdle.push(wrk(server.port, key, row.path, seconds));
    load.send({ type: 'close' });
    await load.next('closed', 120_000);
    await new Promise((r) => setTimeout(r, 1000));
    for (const row of rows) row.without.push(wrk(server.port, key, row.path, seconds));
    log(
      `  http round ${round + 1}: ${rows.map((r) => `${r.path} ${r.withIdle.at(-1)!.toFixed(0)} with / ${r.without.at(-1)!.toFixed(0)} without`).join('; ')}`,
    );
    if (round + 1 < Number(values['http-rounds'])) {
      load.send({ type: 'open', sockets: 10000 });
      await load.next('ready', 300_000);
    }
  }
  load.send({ type: 'exit' });
  for (const row of rows) row.ratio = median(row.withIdle) / median(row.without);
  return rows;
}

/** `count` distinct screens of ashare: seeded bounds, sorts, orders and pages. */
function distinctScreens(count: number): ScreenQuery[] {
  const rand = prng();
  const sorts = ['change_percent', 'close', 'pe_ratio', 'pb_ratio', 'total_market_cap', 'chg_20d', 'turnover_rate'];
  return Array.from({ length: count }, (_, i) => {
    const bounds = new Map<string, { min: number; max: number }>();
    bounds.set('pe_ratio', { min: Math.round(rand() * 20), max: 20 + i }); // i makes each one distinct
    if (rand() < 0.5) bounds.set('pb_ratio', { min: 0, max: 1 + Math.round(rand() * 8) });
    return { bounds, sort: sorts[i % sorts.length], descending: rand() < 0.7, offset: 0, limit: 20 + (i % 31) };
  });
}

interface ScreensFigure {
  screens: number;
  threads: number;
  inlineMs: number[];
  poolMs: number[];
  /** This thread's event loop busy during the pool runs, ms. */
  poolBusyMs: number[];
}

async function screensPoolVsInline(): Promise<ScreensFigure> {
  await ensureSnapshot(DEMO_SNAPSHOT, log);
  const state = join(WORK, 'demo-state');
  log('screens: storing the demo (the first time)…');
  await storeEdition(DEMO_SNAPSHOT, state);
  const dataset: Dataset = (await openCurrentDataset(state))!;
  const queries = distinctScreens(Number(values.screens));
  const kernels = new KernelPool(defaultPoolThreads(), POOL_SOURCE_MODULE);
  kernels.setLive([dataset.origin!.key]);
  const figure: ScreensFigure = {
    screens: queries.length,
    threads: kernels.threads,
    inlineMs: [],
    poolMs: [],
    poolBusyMs: [],
  };
  const runAll = async (runner: ScreenRunner): Promise<{ ms: number; busy: number }> => {
    const elu = performance.eventLoopUtilization();
    const started = performance.now();
    await Promise.all(queries.map((q) => runner.run(dataset, 'ashare', q)));
    const used = performance.eventLoopUtilization(elu);
    return { ms: performance.now() - started, busy: used.active };
  };
  await runAll(new PooledScreens(kernels)); // workers open the edition once
  for (let round = 0; round < Number(values['screen-rounds']); round++) {
    figure.inlineMs.push((await runAll(INLINE_SCREENS)).ms);
    const pooled = await runAll(new PooledScreens(kernels)); // a new runner: nothing remembered, as for a new edition
    figure.poolMs.push(pooled.ms);
    figure.poolBusyMs.push(pooled.busy);
    log(
      `  screens round ${round + 1}: inline ${ms(figure.inlineMs.at(-1)!)} ms, pool ${ms(pooled.ms)} ms (this thread busy ${ms(pooled.busy)} ms)`,
    );
  }
  await kernels.close();
  return figure;
}

await mkdir(WORK, { recursive: true });
const result: Record<string, unknown> = { cores: availableParallelism(), loadAverage: loadavg() };
let server: ServerProcess | null = null;
try {
  if (PARTS.has('screens')) result.screens = await screensPoolVsInline();
  if (PARTS.has('fanout') || PARTS.has('http')) {
    const f = await folders();
    server = await startServerProcess({
      snapshot: f.link,
      state: join(WORK, 'state'),
      env: { THREADS: '2' },
      timeoutMs: 60_000,
    });
    const key = server.keys.internal!;
    if (PARTS.has('fanout')) result.fanout = await fanOut(server, key, f);
    if (PARTS.has('http')) result.http = await httpWithIdle(server, key);
    await server.kill();
    server = null;
  }
  if (PARTS.has('end-to-end')) {
    const variants = values.variants!.split(',') as Variant[];
    for (const v of variants)
      if (!VARIANTS.includes(v)) throw new Error(`--variants: ${v} is not one of ${VARIANTS.join(', ')}`);
    result.endToEnd = await endToEnd({
      work: WORK,
      sockets: Number(values['e2e-sockets']),
      barsShare: Number(values['e2e-bars-share']),
      barsMarkets: values['e2e-bars-markets']!.split(','),
      rounds: ROUNDS,
      variants,
      log,
    });
  }
} finally {
  await server?.kill();
  await rm(WORK, { recursive: true, force: true });
}

const lines: string[] = [];
const fan = result.fanout as FanOut[] | undefined;
if (fan !== undefined) {
  lines.push(
    'Fan-out of one edition (THREADS=2, fixture data; `editions` on every socket, `bars` "*" on a tenth), median of rounds:',
  );
  lines.push('| sockets | publish → first socket | publish → last socket | RssAnon per idle socket | connect all |');
  lines.push('|---|---|---|---|---|');
  for (const r of fan)
    lines.push(
      `| ${r.sockets.toLocaleString('en-US')} | ${ms(median(r.firstMs))} ms | ${ms(median(r.lastMs))} ms | ${(r.rssPerSocketBytes / 1024).toFixed(1)} KiB | ${r.connectSeconds.toFixed(1)} s |`,
    );
}
const http = result.http as HttpIdle[] | undefined;
if (http !== undefined) {
  lines.push('', 'HTTP with 10,000 idle sockets connected vs none (wrk, 16 connections, median req/s):');
  for (const r of http)
    lines.push(
      `- ${r.path}: ${median(r.withIdle).toFixed(0)} with / ${median(r.without).toFixed(0)} without = ${r.ratio.toFixed(3)}`,
    );
}
const scr = result.screens as ScreensFigure | undefined;
if (scr !== undefined) {
  lines.push(
    '',
    `${scr.screens} distinct standing screens re-run for one edition (demo ashare): inline ${ms(median(scr.inlineMs))} ms (this thread busy throughout); pool (${scr.threads} worker(s)) ${ms(median(scr.poolMs))} ms, this thread busy ${ms(median(scr.poolBusyMs))} ms`,
  );
}
const e2e = result.endToEnd as EndToEndFigure | undefined;
if (e2e !== undefined) lines.push('', ...formatEndToEnd(e2e));
console.log(lines.join('\n'));
await mkdir(join(ROOT, 'bench/results'), { recursive: true });
await writeFile(join(ROOT, 'bench/results/stream.json'), `${JSON.stringify(result, null, 2)}\n`);
