// `npm run bench [-- --only micro,sizes,decode,levels,pool,guard,observe,as-of,http,threads,limits,memory,data-path,editions,export,stream] [--quick]`: every bench figure in one run; tables on stdout, JSON in bench/results/.
// HTTP flags: --seconds N --warmup N --rounds N --connections N --half-rate-seconds N (0: none) --cases 'screen,detail' --cpu-prof-dir DIR (profile our server).
// Memory part: --requests N (default 200,000; quick 20,000) --memory-threads N (default 2).
// Data: --snapshot DIR (default snapshots/demo, generated if absent) --state DIR (default /tmp/mdq-http-bench-state, reused).

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Dataset } from '../engine/dataset/dataset.js';
import { storeEdition } from '../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../loaders/edition/stored-editions.js';
import { asOfFigures, formatAsOfTable } from './cases/as-of.js';
import { decodeCases, LEVEL_QUESTIONS, SIZE_QUESTIONS } from './cases/formats.js';
import { microCases } from './cases/index.js';
import { GUARD_FULL, GUARD_QUICK, run as runGuard } from './cases/guard.js';
import { OBSERVE_FULL, OBSERVE_QUICK, run as runObserve } from './cases/observe.js';
import { POOL_SIZES } from './cases/pool.js';
import { defaultPoolThreads } from '../engine/pool/pool.js';
import { stopAll } from './http/children.js';
import { formatEndpoints, runEndpoints } from './http/endpoints.js';
import { formatSharedLimits, redisMissing, runSharedLimits } from './http/shared-limits.js';
import { formatCachesShare, formatMemory, runMemory, runWithoutCaches } from './http/memory.js';
import { formatThreads, runThreads } from './http/threads.js';
import { DEMO_SNAPSHOT, ensureSnapshot, REPO } from './http/servers.js';
import { formatLevelTable, LEVELS_FULL, LEVELS_QUICK, levelSweep } from './micro/levels.js';
import { FULL, measureAll, QUICK } from './micro/measure.js';
import { formatPoolTable, poolCrossover } from './micro/pool-crossover.js';
import { formatExport, runExport } from './http/export.js';
import { formatSizeTable, measureSizes } from './micro/sizes.js';
import { formatMicroTable } from './micro/table.js';

const PARTS = [
  'micro',
  'sizes',
  'decode',
  'levels',
  'guard',
  'observe',
  'pool',
  'as-of',
  'http',
  'threads',
  'limits',
  'memory',
  'data-path',
  'editions',
  'export',
  'stream',
] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    snapshot: { type: 'string', default: DEMO_SNAPSHOT },
    state: { type: 'string', default: '/tmp/mdq-http-bench-state' },
    'cpu-prof-dir': { type: 'string' },
    cases: { type: 'string' },
    'half-rate-seconds': { type: 'string' },
    requests: { type: 'string' },
    'memory-threads': { type: 'string' },
  },
  strict: true,
});

const log = (line: string): void => console.error(`[bench] ${line}`);
const quick = values.quick;
function whole(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min)
    throw new Error(`--${name} must be a whole number ≥ ${min}, got '${text}'`);
  return Number(text);
}
// `--only` takes one part or a comma list; `micro` also runs the pool crossover (both measure kernels in-process).
const only =
  values.only === undefined
    ? null
    : values.only
        .split(',')
        .map((p) => p.trim())
        .flatMap((p) => (p === 'micro' ? ['micro', 'pool'] : [p]));
if (only !== null && !only.every((p) => (PARTS as readonly string[]).includes(p)))
  throw new Error(`--only takes parts of ${PARTS.join(', ')} (comma-separated); got '${values.only}'`);
const runs = (part: Part): boolean => only === null || only.includes(part);
const snapshotDir = resolve(values.snapshot!);
const stateDir = resolve(values.state!);
const command = ['npm run bench --', ...process.argv.slice(2)].join(' ');

process.on('SIGINT', () => void stopAll().finally(() => process.exit(130)));
process.on('SIGTERM', () => void stopAll().finally(() => process.exit(143)));

/** The full demo (generated when absent), stored in the bench's state dir and opened here. */
async function benchDataset(): Promise<Dataset> {
  await ensureSnapshot(snapshotDir, log);
  await storeEdition(snapshotDir, stateDir);
  const started = performance.now();
  const dataset = (await openCurrentDataset(stateDir))!;
  log(`dataset ${dataset.version} open (${((performance.now() - started) / 1000).toFixed(2)} s)`);
  return dataset;
}

const result: Record<string, unknown> = {
  generated: new Date().toISOString(),
  command,
  quick,
  machine: {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  },
};
console.log(
  `npm run bench${quick ? ' (quick: short runs, figures are rough)' : ''} — ${cpus().length} cores (${cpus()[0]?.model}), Node ${process.version}`,
);

try {
  let dataset: Dataset | null = (['micro', 'sizes', 'decode', 'levels', 'pool', 'as-of'] as const).some(runs)
    ? await benchDataset()
    : null;
  if (dataset !== null) result.dataset = dataset.version;

  if (runs('micro')) {
    log('part a: kernel and serialiser micro-benchmarks (tinybench; ratios against the naive baseline of each case)');
    const micro = await measureAll(microCases(dataset!), quick ? QUICK : FULL, log);
    console.log(
      `\nMicro-benchmarks: median µs per call; "vs baseline" = baseline time / variant time\n${formatMicroTable(micro)}`,
    );
    result.micro = micro;
  }
  if (runs('sizes')) {
    log(
      'sizes: every answer class in json, msgpack, flatbuffers and csv, uncompressed, gzip and br (rendered in-process)',
    );
    const sizes = measureSizes(dataset!, SIZE_QUESTIONS);
    console.log(
      `\nAnswer sizes: body bytes as the service renders them (route handle + render) and compresses them (br quality ${sizes.brotliQuality}, gzip level ${sizes.gzipLevel}); ` +
        `"/json" = share of the uncompressed JSON; * under ${sizes.minCompressedBytes} B: the server sends it uncompressed\n${formatSizeTable(sizes)}`,
    );
    result.sizes = sizes;
  }
  if (runs('decode')) {
    log('decode: a K-lines answer read by a Node client, JSON vs msgpack vs FlatBuffers');
    const decode = await measureAll(decodeCases(dataset!), quick ? QUICK : FULL, log);
    console.log(
      `\nClient decode in Node (every number read out: the sum of each column): median µs per answer; "vs baseline" = JSON.parse time / variant time\n${formatMicroTable(decode)}`,
    );
    result.decode = decode;
  }
  if (runs('levels')) {
    log('levels: br quality 1…11 and gzip level 1…9 on cached JSON answers');
    const levels = await levelSweep(dataset!, LEVEL_QUESTIONS, quick ? LEVELS_QUICK : LEVELS_FULL, log);
    console.log(
      `\nCompression levels (transport/serialise/encode.ts uses br ${levels.brotliQuality}, gzip ${levels.gzipLevel}): bytes and median µs per compression of one body on this thread; ` +
        `a cached answer is compressed once per data version and encoding, an uncached one on every request\n${formatLevelTable(levels)}`,
    );
    result.levels = levels;
  }
  if (runs('guard')) {
    log('part a: the guard (key check, bucket, quota) bench');
    console.log('');
    result.guard = await runGuard(quick ? GUARD_QUICK : GUARD_FULL);
  }
  if (runs('observe')) {
    log('part a: observing a request (metrics counters, access log line) and a /metrics scrape');
    console.log('');
    result.observe = await runObserve(quick ? OBSERVE_QUICK : OBSERVE_FULL);
  }
  if (runs('pool')) {
    log('part a: screens inline vs on the pool at several table sizes');
    const pool = await poolCrossover(
      dataset!,
      POOL_SIZES,
      { micro: quick ? QUICK : FULL, runMs: quick ? 200 : 1_000 },
      log,
    );
    console.log(
      `\nInline vs pool: one screen (${pool.threads} pool thread(s) on ${cpus().length} cores), and screens/s with ${pool.inFlight} in flight, each with ${pool.requestWorkUs} µs of other main-thread work`,
    );
    console.log(formatPoolTable(pool));
    console.log(`verdict: ${pool.verdict.split('; ').join('\n  ')}`);
    result.pool = pool;
  }
  if (runs('as-of')) {
    log(
      'part a: as_of screens: the table derived inline and on the pool (first), from the cache (again), and its memory',
    );
    const threads = defaultPoolThreads();
    const asOf = await asOfFigures(dataset!, 5, quick ? 3 : 9, threads);
    console.log(
      `\nas_of screens about 5 years back (bound pe_ratio, sort chg_20d): median of the first, its table derived on this thread (inline) or split across ${threads} pool worker(s) and this thread (pool), and of a repeat (kept table)\n${formatAsOfTable(asOf)}`,
    );
    result.asOf = asOf;
  }
  dataset = null; // the HTTP part runs its own server: let this process's copy go
  if (runs('http')) {
    log('part b: HTTP load, ours vs raw uWS');
    const http = await runEndpoints({
      seconds: whole('seconds', values.seconds, quick ? 1 : 10, 1),
      warmupSeconds: whole('warmup', values.warmup, quick ? 1 : 3, 0),
      rounds: whole('rounds', values.rounds, quick ? 1 : 3, 1),
      halfRateSeconds: whole('half-rate-seconds', values['half-rate-seconds'], quick ? 1 : 5, 0),
      only: values.cases?.split(',').map((c) => c.trim()),
      connections: whole('connections', values.connections, 32, 1),
      snapshotDir,
      stateDir,
      log,
      command,
      serverNodeArgs:
        values['cpu-prof-dir'] === undefined
          ? undefined
          : ['--cpu-prof', '--cpu-prof-dir', resolve(values['cpu-prof-dir'])],
    });
    console.log(`\n${formatEndpoints(http)}`);
    result.http = http;
    result.loadTool = (http.inline ?? http.varied ?? http.formats ?? http.uncached ?? http.pool)?.loadTool;
  }
  if (runs('threads')) {
    log('part b: serving threads, THREADS=1 vs 2');
    await ensureSnapshot(snapshotDir, log);
    const threads = await runThreads({
      seconds: whole('seconds', values.seconds, quick ? 1 : 5, 1),
      rounds: whole('rounds', values.rounds, quick ? 1 : 3, 1),
      connections: whole('connections', values.connections, 32, 1),
      snapshotDir,
      stateDir,
      log,
    });
    console.log(`\n${formatThreads(threads)}`);
    result.threads = threads;
  }
  if (runs('limits')) {
    log('part b: limits kept locally vs in Redis (REDIS_URL)');
    const missing = redisMissing();
    if (missing !== null) {
      console.log(`\nShared limits: not measured: ${missing}`);
      result.limits = { skipped: missing };
    } else {
      const limits = await runSharedLimits({
        seconds: whole('seconds', values.seconds, quick ? 1 : 5, 1),
        rounds: whole('rounds', values.rounds, quick ? 1 : 3, 1),
        connections: whole('connections', values.connections, 32, 1),
        log,
      });
      console.log(`\n${formatSharedLimits(limits)}`);
      result.limits = limits;
    }
  }
  if (runs('memory')) {
    log('part b: resident memory over distinct requests against the cache budgets');
    await ensureSnapshot(snapshotDir, log);
    const options = {
      stateDir,
      snapshotDir,
      requests: whole('requests', values.requests, quick ? 20_000 : 200_000, 100),
      threads: whole('memory-threads', values['memory-threads'], 2, 1),
      concurrency: 16,
      port: 0,
      budgets: { response: 32, klineText: 16, asOf: 32 },
      settleSeconds: 10,
      seed: 1,
      log,
    };
    const memory = await runMemory(options);
    console.log(`\n${formatMemory(memory)}`);
    const withoutCaches = await runWithoutCaches(options);
    console.log(formatCachesShare(memory, withoutCaches).text);
    result.memory = { ...memory, withoutCaches };
  }
  if (runs('data-path')) {
    log('part c: data path (generate + load + open the demo in a temporary folder)');
    const script = fileURLToPath(new URL('./data-path.js', import.meta.url));
    const args = quick ? ['--scale', '0.1', '--years', '2'] : [];
    const out = execFileSync(process.execPath, [script, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    console.log(`\nData path${quick ? ' (quick: 10 % of symbols, 2 years)' : ''}\n${out.trimEnd()}`);
    result.dataPath = JSON.parse(readFileSync(join(REPO, 'bench/results/data-path.json'), 'utf8'));
  }
  if (runs('editions')) {
    log('part e: editions (open by size, restart, first requests, reloads, memory)');
    const script = fileURLToPath(new URL('./ops/editions.js', import.meta.url));
    const args = quick ? ['--sizes', '0.25:10,1:10', '--runs', '3'] : [];
    const out = execFileSync(process.execPath, [script, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    console.log(`
Editions${quick ? ' (quick: scales 0.25 and 1, 3 runs)' : ''}
${out.trimEnd()}`);
    result.editions = JSON.parse(readFileSync(join(REPO, 'bench/results/editions.json'), 'utf8'));
  }
  if (runs('export')) {
    log(
      "part f: export (ashare's whole history as CSV and Arrow, memory sampled; a 1 MB/s reader beside K-line requests)",
    );
    await ensureSnapshot(snapshotDir, log);
    const exported = await runExport({
      stateDir,
      snapshotDir,
      slowSeconds: quick ? 3 : 10,
      probeSeconds: quick ? 3 : 10,
      pauseSeconds: quick ? 15 : 60,
      log,
    });
    console.log(
      `\nExport of ashare's whole history (one serving thread pinned to one core, internal key)\n${formatExport(exported)}`,
    );
    result.export = exported;
  }
  if (runs('stream')) {
    log(
      'part g: push over WebSocket (fan-out to 1,000 and 10,000 sockets, memory per idle socket, standing screens on the pool vs inline, HTTP beside 10,000 idle sockets, a day appended to the full demo end to end)',
    );
    const script = fileURLToPath(new URL('./ops/stream.js', import.meta.url));
    const args = quick
      ? [
          '--sockets',
          '1000',
          '--rounds',
          '1',
          '--screens',
          '200',
          '--screen-rounds',
          '1',
          '--http-seconds',
          '2',
          '--http-rounds',
          '1',
          '--e2e-sockets',
          '1000',
        ]
      : [];
    const out = execFileSync(process.execPath, [script, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    console.log(`\nPush over WebSocket${quick ? ' (quick: 1,000 sockets, one round of each)' : ''}\n${out.trimEnd()}`);
    result.stream = JSON.parse(readFileSync(join(REPO, 'bench/results/stream.json'), 'utf8'));
  }
  const dir = join(REPO, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${(result.generated as string).replace(/[:.]/g, '-')}.json`);
  const text = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(join(dir, 'bench-latest.json'), text);
  console.log(`\nJSON: ${file} (and bench/results/bench-latest.json)`);
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await stopAll();
  process.exitCode = 1;
}
