// The memory part of `npm run bench`: the server with small cache budgets, its resident memory at
// start, then over a long stream of distinct requests (every route, format and encoding), and
// after it. The bound is on the process's own (anonymous) memory: start + the cache budgets ×
// threads + 15 %. The data is the stored edition's files, read in place from the memory map: their
// pages count in RSS as requests touch them (file-backed, shared with every process mapping them,
// given back by the kernel under pressure) and are reported beside it. Runs standalone too:
//   node dist/bench/http/memory.js --state DIR [--snapshot DIR] [--requests N] [--threads N] [--port P] [--no-baseline]
// It runs twice: with the budgets, then with every cache off (the runtime's own working size), and
// bounds what the caches add (unless --no-baseline).

import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NUMERIC_SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { stopAll } from './children.js';
import { cpuSeconds } from './cpu-time.js';
import { type MixData, type MixRequest, RequestMix } from './memory-mix.js';
import { internalKey, startOurServer } from './servers.js';

const MiB = 1024 * 1024;

export interface MemoryOptions {
  stateDir: string;
  /** Snapshot folder to load (null: the state folder's stored edition, as `--state` alone serves it). */
  snapshotDir: string | null;
  requests: number;
  threads: number;
  /** Requests in flight (one keep-alive connection each). */
  concurrency: number;
  /** Cache budgets in MB, per serving thread (RESPONSE_CACHE_MB, KLINE_TEXT_CACHE_MB, AS_OF_CACHE_MB). */
  budgets: { response: number; klineText: number; asOf: number };
  /** Idle seconds after the load before the settled figure is read. */
  settleSeconds: number;
  seed: number;
  /** 0: a free port. */
  port: number;
  /** More environment for the server (e.g. MALLOC_ARENA_MAX for an experiment). */
  env?: Record<string, string>;
  nodeArgs?: string[];
  log: (line: string) => void;
}

/** Resident memory of the server at one moment (bytes). */
export interface MemorySample {
  /** Requests answered by then. */
  done: number;
  seconds: number;
  rss: number;
  /** Anonymous (heaps, malloc, caches) and file-backed (the data's mapped pages, the program's files) parts of rss. */
  anon: number;
  file: number;
  /** Proportional set size (smaps_rollup): pages shared with other processes counted by share. */
  pss: number | null;
}

export interface MemoryResult {
  requests: number;
  threads: number;
  concurrency: number;
  budgets: MemoryOptions['budgets'];
  /** Cache budgets × threads, bytes. */
  budgetBytes: number;
  start: MemorySample;
  /** Highest sampled RSS, and the kernel's own high-water mark (VmHWM) at the end. */
  peak: MemorySample;
  /** Highest sampled anonymous memory (what the bound reads). */
  peakAnon: MemorySample;
  hwm: number | null;
  end: MemorySample;
  settled: MemorySample;
  /**
   * The bound, read as (start + budgets × threads) × 1.15: anonymous memory at start plus the
   * caches, and 15 % of that for the runtime (V8's heaps, the allocator). `met` compares the
   * higher of the peak and settled anonymous memory with it; the run exits 1 when it is not.
   */
  bound: number;
  met: boolean;
  /** The stricter reading, start + budgets × threads × 1.15 (15 % of the caches for the runtime), and whether it was met. */
  strictBound: number;
  strictMet: boolean;
  seconds: number;
  /** Server CPU (every thread) per request over the load, µs, or null when /proc cannot tell. */
  cpuUs: number | null;
  statuses: Record<string, number>;
  drawn: Record<string, number>;
  bodyBytes: number;
  /** The answer cache's own count of what it holds (mdq_answer_cache_bytes, every thread), if /metrics answered. */
  answerCacheBytes: number | null;
  samples: MemorySample[];
}

export function procFigures(
  pid: number,
): { rss: number; anon: number; file: number; hwm: number; pss: number | null } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    let pss: number | null = null;
    try {
      pss = Number(/^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? NaN) * 1024;
    } catch {
      // smaps_rollup needs Linux 4.14 and the right to read it: rss still tells
    }
    return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem'), hwm: kb('VmHWM'), pss };
  } catch {
    return null;
  }
}

/** One GET on a kept-alive connection: status and body length (the body is read and dropped). */
function get(
  agent: Agent,
  port: number,
  key: string,
  r: MixRequest,
  timeoutMs = 60_000,
): Promise<{ status: number; bytes: number; body?: Buffer }> {
  return new Promise((resolvePromise, reject) => {
    const headers: Record<string, string> = { 'x-api-key': key };
    if (r.accept !== null) headers.accept = r.accept;
    if (r.acceptEncoding !== null) headers['accept-encoding'] = r.acceptEncoding;
    const req = request({ host: '127.0.0.1', port, path: r.path, agent, headers, timeout: timeoutMs }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${r.path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** A JSON answer (plain, no encoding). */
async function getJson(agent: Agent, port: number, key: string, path: string): Promise<any> {
  return new Promise((resolvePromise, reject) => {
    request({ host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': key } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        res.statusCode === 200
          ? resolvePromise(JSON.parse(text))
          : reject(new Error(`${path}: ${res.statusCode} ${text.slice(0, 200)}`)),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** What the mix draws from: markets, every symbol, and a screen page of values per market (~70 requests, counted in the load). */
async function readMixData(agent: Agent, port: number, key: string): Promise<{ data: MixData; requests: number }> {
  let requests = 1;
  const markets = (await getJson(agent, port, key, '/api/v1/markets')).data.filter(
    (m: any) => m.symbols > 0 && m.start_date !== null,
  );
  const data: MixData = {
    markets: markets.map((m: any) => ({ market: m.market, start: m.start_date, end: m.end_date })),
    symbols: {},
    samples: {},
  };
  for (const { market } of data.markets) {
    const codes: string[] = [];
    const names: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await getJson(agent, port, key, `/api/v1/${market}/symbols?limit=100&offset=${offset}`);
      requests++;
      for (const row of page.data) codes.push(row.symbol), names.push(row.name ?? '');
      if (page.data.length < 100) break;
    }
    data.symbols[market] = { codes, names };
    const sample = await getJson(agent, port, key, `/api/v1/${market}/screen?fields=*&limit=500&sort=total_market_cap`);
    requests++;
    data.samples[market] = {};
    for (const column of NUMERIC_SNAPSHOT_COLUMNS) {
      data.samples[market][column] = sample.data
        .map((row: any) => row[column])
        .filter((v: unknown): v is number => typeof v === 'number' && Number.isFinite(v))
        .map((v: number) => Number(v.toFixed(4)));
    }
  }
  return { data, requests };
}

/** The answer cache's bytes as /metrics sums them over the serving threads, or null. */
async function answerCacheBytes(agent: Agent, port: number): Promise<number | null> {
  try {
    const text = await new Promise<string>((resolvePromise, reject) => {
      request({ host: '127.0.0.1', port, path: '/metrics', agent }, (res) => {
        let t = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (t += c));
        res.on('end', () => resolvePromise(t));
      })
        .on('error', reject)
        .end();
    });
    const m = /^mdq_answer_cache_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text);
    return m === null ? null : Number(m[1]);
  } catch {
    return null;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runMemory(o: MemoryOptions): Promise<MemoryResult> {
  const key = await internalKey(o.stateDir, o.log);
  const env: Record<string, string> = {
    THREADS: String(o.threads),
    RESPONSE_CACHE_MB: String(o.budgets.response),
    KLINE_TEXT_CACHE_MB: String(o.budgets.klineText),
    AS_OF_CACHE_MB: String(o.budgets.asOf),
    ...o.env,
  };
  const server = await startOurServer({
    stateDir: o.stateDir,
    snapshotDir: o.snapshotDir,
    port: o.port,
    core: null,
    env,
    nodeArgs: o.nodeArgs,
    log: o.log,
  });
  const pid = server.child.pid;
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const t0 = performance.now();
  let done = 0;
  const samples: MemorySample[] = [];
  const sample = (): MemorySample => {
    const f = procFigures(pid);
    if (f === null) throw new Error(`cannot read /proc/${pid}: has the server exited?`);
    const s = { done, seconds: (performance.now() - t0) / 1000, rss: f.rss, anon: f.anon, file: f.file, pss: f.pss };
    samples.push(s);
    return s;
  };
  try {
    for (let tries = 0; ; tries++) {
      const ready = await get(agent, server.port, key, { path: '/readyz', accept: null, acceptEncoding: null }).catch(
        () => null,
      );
      if (ready?.status === 200) break;
      if (tries > 100) throw new Error('the server never answered /readyz with 200');
      await sleep(100);
    }
    await sleep(1000);
    const start = sample();
    o.log(
      `start: RSS ${mb(start.rss)}, Pss ${mb(start.pss)} (${o.threads} serving threads, budgets ${o.budgets.response}+${o.budgets.klineText}+${o.budgets.asOf} MB each)`,
    );

    const cpu0 = cpuSeconds(pid);
    const { data, requests: setup } = await readMixData(agent, server.port, key);
    done = setup;
    const mix = new RequestMix(data, o.seed);
    const statuses: Record<string, number> = {};
    let bodyBytes = 0;
    let peak = start;
    let peakAnon = start;
    const timer = setInterval(() => {
      const s = sample();
      if (s.rss > peak.rss) peak = s;
      if (s.anon > peakAnon.anon) peakAnon = s;
    }, 500);
    timer.unref();
    let lastLog = performance.now();
    let lastDone = done;
    let failure: Error | null = null;
    const worker = async (): Promise<void> => {
      while (done < o.requests && failure === null) {
        const r = mix.next();
        done++;
        try {
          const answer = await get(agent, server.port, key, r);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          bodyBytes += answer.bytes;
          if (answer.status >= 500) throw new Error(`GET ${r.path}: ${answer.status}`);
        } catch (error) {
          failure ??= error instanceof Error ? error : new Error(String(error));
        }
        const now = performance.now();
        if (now - lastLog > 10_000) {
          const s = samples[samples.length - 1];
          o.log(
            `${done.toLocaleString('en-US')} requests, ${Math.round(((done - lastDone) * 1000) / (now - lastLog))} req/s, RSS ${mb(s.rss)} (peak ${mb(peak.rss)})`,
          );
          lastLog = now;
          lastDone = done;
        }
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    clearInterval(timer);
    if (failure !== null) throw failure;
    const loadSeconds = (performance.now() - t0) / 1000;
    const cpu1 = cpuSeconds(pid);
    const end = sample();
    if (end.rss > peak.rss) peak = end;
    if (end.anon > peakAnon.anon) peakAnon = end;
    agent.destroy(); // idle: no connection kept open, as after a real burst
    o.log(
      `${done.toLocaleString('en-US')} requests in ${loadSeconds.toFixed(0)} s; RSS ${mb(end.rss)}, peak ${mb(peak.rss)}; idle ${o.settleSeconds} s`,
    );
    for (let s = 0; s < o.settleSeconds; s++) {
      await sleep(1000);
      sample();
    }
    const settled = sample();
    const hwm = procFigures(pid)?.hwm ?? null;
    const cacheBytes = await answerCacheBytes(new Agent({ keepAlive: false }), server.port);
    const budgetBytes = (o.budgets.response + o.budgets.klineText + o.budgets.asOf) * MiB * o.threads;
    const bound = (start.anon + budgetBytes) * 1.15;
    const strictBound = start.anon + budgetBytes * 1.15;
    const high = Math.max(peakAnon.anon, settled.anon);
    return {
      requests: done,
      threads: o.threads,
      concurrency: o.concurrency,
      budgets: o.budgets,
      budgetBytes,
      start,
      peak,
      peakAnon,
      hwm,
      end,
      settled,
      bound,
      met: high <= bound,
      strictBound,
      strictMet: high <= strictBound,
      seconds: loadSeconds,
      cpuUs: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1e6) / done,
      statuses,
      drawn: mix.drawn,
      bodyBytes,
      answerCacheBytes: cacheBytes,
      samples,
    };
  } finally {
    agent.destroy();
    await server.child.stop();
  }
}

const mb = (bytes: number | null): string =>
  bytes === null || !Number.isFinite(bytes) ? '–' : `${Math.round(bytes / MiB).toLocaleString('en-US')} MB`;
const over = (now: number, start: number): string => `+${mb(now - start)}`;

/** The same requests again with every cache off: the runtime's own working size, against which the caches' share is read. */
export const runWithoutCaches = (options: MemoryOptions): Promise<MemoryResult> =>
  runMemory({ ...options, budgets: { response: 0, klineText: 0, asOf: 0 } });

/**
 * What the caches themselves add: the settled and peak anonymous memory of a run with the budgets
 * against one with every cache off (the same requests), bounded by budgets × threads × 1.15.
 * Apart from the caches, a server's anonymous memory grows in its first few thousand requests
 * (compiled code, V8's heaps at working size in every thread and pool worker, the allocator's
 * free lists) and stays flat after: the run without caches measures that.
 */
export function formatCachesShare(on: MemoryResult, off: MemoryResult): { text: string; met: boolean } {
  const settled = on.settled.anon - off.settled.anon;
  const peak = on.peakAnon.anon - off.peakAnon.anon;
  const bound = on.budgetBytes * 1.15;
  const met = Math.max(settled, peak) <= bound;
  const text =
    `Without caches (the same requests, every budget 0): anonymous memory settled at ${mb(off.settled.anon)} (+${mb(off.settled.anon - off.start.anon)} over its start: the runtime at working size), peak ${mb(off.peakAnon.anon)}.\n` +
    `The caches' share, with against without: settled +${mb(settled)}, peak +${mb(peak)}; bound budgets × threads × 1.15 = ${mb(bound)}: ${met ? 'met' : 'NOT met'}.`;
  return { text, met };
}

export function formatMemory(r: MemoryResult): string {
  const row = (what: string, s: MemorySample): string =>
    `| ${what} | ${s.done.toLocaleString('en-US')} | ${mb(s.anon)} | ${over(s.anon, r.start.anon)} | ${mb(s.file)} | ${mb(s.rss)} | ${mb(s.pss)} |`;
  const statuses = Object.entries(r.statuses)
    .map(([s, n]) => `${s}: ${n.toLocaleString('en-US')}`)
    .join(', ');
  const kinds = Object.entries(r.drawn)
    .map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`)
    .join(', ');
  const b = r.budgets;
  return [
    `Memory over ${r.requests.toLocaleString('en-US')} distinct requests (THREADS=${r.threads}, RESPONSE_CACHE_MB=${b.response} KLINE_TEXT_CACHE_MB=${b.klineText} AS_OF_CACHE_MB=${b.asOf}; ${r.concurrency} in flight on keep-alive connections; ${r.seconds.toFixed(0)} s)`,
    '| when | requests | anonymous | over start | file-backed | RSS | Pss |',
    '|---|---|---|---|---|---|---|',
    row('start (after /readyz)', r.start),
    row('peak anonymous (sampled every 0.5 s)', r.peakAnon),
    row('peak RSS', r.peak),
    row('end of the load', r.end),
    row('settled (after the idle wait)', r.settled),
    `Budgets × threads: ${mb(r.budgetBytes)}. Bound on anonymous memory (start + budgets × threads) × 1.15 = ${mb(r.bound)}: ${r.met ? 'met' : 'NOT met'}; ` +
      `stricter reading start + budgets × threads × 1.15 = ${mb(r.strictBound)}: ${r.strictMet ? 'met' : 'NOT met'} (peak ${mb(r.peakAnon.anon)}, settled ${mb(r.settled.anon)}).`,
    `File-backed: the data's pages mapped from the edition's files as requests touched them (shared with every thread and process that maps them) and the program's own files.`,
    `Kernel high-water mark (VmHWM, since the process started: opening the data included): ${mb(r.hwm)}.`,
    `Server CPU per request (every thread, from /proc): ${r.cpuUs === null ? '–' : `${Math.round(r.cpuUs)} µs`}. Answer cache's own count (/metrics mdq_answer_cache_bytes, all threads): ${mb(r.answerCacheBytes)}. Statuses: ${statuses}. Bodies received: ${mb(r.bodyBytes)}.`,
    `Requests by kind: ${kinds}.`,
  ].join('\n');
}

/** Standalone: `node dist/bench/http/memory.js --state DIR [...]`. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      state: { type: 'string' },
      snapshot: { type: 'string' },
      requests: { type: 'string', default: '200000' },
      threads: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '16' },
      port: { type: 'string', default: '0' },
      'response-cache-mb': { type: 'string', default: '32' },
      'kline-text-cache-mb': { type: 'string', default: '16' },
      'as-of-cache-mb': { type: 'string', default: '32' },
      settle: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      json: { type: 'string' },
      'no-baseline': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.state === undefined)
    throw new Error('--state DIR is required (the server takes its lock and writes usage there: use a copy)');
  const whole = (name: string, text: string): number => {
    if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a whole number, got '${text}'`);
    return Number(text);
  };
  const options = {
    stateDir: resolve(values.state),
    snapshotDir: values.snapshot === undefined ? null : resolve(values.snapshot),
    requests: whole('requests', values.requests!),
    threads: whole('threads', values.threads!),
    concurrency: whole('concurrency', values.concurrency!),
    port: whole('port', values.port!),
    budgets: {
      response: whole('response-cache-mb', values['response-cache-mb']!),
      klineText: whole('kline-text-cache-mb', values['kline-text-cache-mb']!),
      asOf: whole('as-of-cache-mb', values['as-of-cache-mb']!),
    },
    settleSeconds: whole('settle', values.settle!),
    seed: whole('seed', values.seed!),
    log: (line: string) => console.error(`[memory] ${line}`),
  };
  const result = await runMemory(options);
  console.log(formatMemory(result));
  let share: { text: string; met: boolean } | null = null;
  let off: MemoryResult | null = null;
  if (!values['no-baseline']) {
    options.log("again with every cache off, for the runtime's own working size");
    off = await runWithoutCaches(options);
    share = formatCachesShare(result, off);
    console.log(share.text);
  }
  if (values.json !== undefined)
    (await import('node:fs')).writeFileSync(
      values.json,
      `${JSON.stringify({ ...result, withoutCaches: off }, null, 2)}\n`,
    );
  if (!(share?.met ?? result.met)) process.exitCode = 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.on('SIGINT', () => void stopAll().finally(() => process.exit(130)));
  process.on('SIGTERM', () => void stopAll().finally(() => process.exit(143)));
  main().catch(async (error: unknown) => {
    console.error(`[memory] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await stopAll();
    process.exitCode = 2;
  });
}
