// The HTTP part of `npm run bench`: every endpoint class against raw uWS (as served, then
// with the answer cache off), K-lines and the screen in other formats and encodings, the
// screen once more on the pool, tables and targets.

import {
  ALL_CASES,
  FIRST_ASK_CASES,
  FORMAT_CASES,
  type HttpCase,
  QUERY_CASES,
  QUERY_UNCACHED_CASES,
  QUOTA,
  SCREEN,
  VARIED_CASES,
} from './cases.js';
import { type CaseResult, type ComparisonResult, runComparison } from './comparison.js';
import { formatHalfRateTable, formatTable } from './table.js';

export interface EndpointsOptions {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  halfRateSeconds: number;
  connections: number;
  snapshotDir: string;
  stateDir: string;
  /** Extra node flags of our server (e.g. --cpu-prof). */
  serverNodeArgs?: string[];
  log: (line: string) => void;
  command: string;
  /** Case names to run (default: all, the format, uncached and pool ones included). */
  only?: string[];
}

/** Our server's environment without the whole-answer cache: every request rendered from the row caches. */
const NO_ANSWER_CACHE = { RESPONSE_CACHE_MB: '0' };

export interface EndpointsResult {
  /** The cases as the server runs by default (answer cache on, screens inline), or null if none was selected. */
  inline: ComparisonResult | null;
  /**
   * The same cases with RESPONSE_CACHE_MB=0: what a request costs when its answer is not
   * cached (a first or one-off request), no half-rate run (null if none was selected).
   */
  uncached: ComparisonResult | null;
  /**
   * FORMAT_CASES as served by default (answer cache on): msgpack and flatbuffers bodies, and
   * JSON compressed with gzip and br (the compressed body kept with the cached answer); no
   * half-rate run (null if none was selected).
   */
  formats: ComparisonResult | null;
  /**
   * VARIED_CASES as served by default: many distinct requests per case, each answer cached after
   * the warm-up, the raw server answering each path with its own bytes; no half-rate run (null if
   * none was selected). The headline figures: what users' varied requests get.
   */
  varied: ComparisonResult | null;
  /** The screen case with SCREEN_POOL_MIN_ROWS=0 and no answer cache: every screen on the Piscina pool (null if not selected). */
  pool: ComparisonResult | null;
  targets: TargetCheck[];
}

/** A target figure (ours/raw req/s, p99 at half rate), and whether this run reached it. */
export interface TargetCheck {
  what: string;
  value: string;
  target: string;
  met: boolean;
}

export const P99_TARGET_MS = 2;
/** Minimum ours/raw req/s per case name: how close a cached answer comes to uWS sending the same bytes. */
export const RATIO_TARGETS: Readonly<Record<string, number>> = {
  'klines 100 bfq': 0.8,
  detail: 0.7,
  screen: 0.85,
  'screen as_of': 0.8,
  // msgpack, flatbuffers, gzip and br answers of K-lines 100 and the screen, served from the answer cache.
  ...Object.fromEntries(FORMAT_CASES.map((c) => [c.name, 0.8])),
  // The same figures without the answer cache: shown beside, for the cost of a first request.
  'klines 100 bfq (uncached)': 0.6,
  'detail (uncached)': 0.7,
  'screen (uncached)': 0.4,
  'screen as_of (uncached)': 0.4,
  'screen (pool)': 0.4,
  // As users send them, many distinct requests each, served from the answer cache: every case ≥ 85 %.
  ...Object.fromEntries([...VARIED_CASES, ...QUERY_CASES, ...FIRST_ASK_CASES].map((c) => [c.name, 0.85])),
  // The first ask of each (RESPONSE_CACHE_MB=0): K-lines 100 and detail ≥ 60 %, the latest 20, a detail batch, the
  // screen and search ≥ 50 %, a batch of a day ≥ 40 %.
  'klines 100 bfq (varied uncached)': 0.6,
  'klines 100 qfq (varied uncached)': 0.6,
  'detail (varied uncached)': 0.6,
  'klines latest 20 (varied uncached)': 0.5,
  'detail batch 50 (varied uncached)': 0.5,
  'screen (varied uncached)': 0.5,
  'symbols search (varied uncached)': 0.5,
  'klines batch 50×1d (varied uncached)': 0.4,
};

/** Served from the answer cache (varied cases), ours' p99 at full load at most this many times raw's (the same run, same connections). */
export const P99_OF_RAW_TARGET = 2;

export const POOL_SCREEN: HttpCase = { ...SCREEN, name: 'screen (pool)' };
/** Every case but /quota (never cached) again, named `… (uncached)`. */
export const UNCACHED_CASES: HttpCase[] = ALL_CASES.filter((c) => c !== QUOTA).map((c) => ({
  ...c,
  name: `${c.name} (uncached)`,
}));

export async function runEndpoints(o: EndpointsOptions): Promise<EndpointsResult> {
  const common = {
    seconds: o.seconds,
    warmupSeconds: o.warmupSeconds,
    rounds: o.rounds,
    retries: 3,
    maxOtherCpu: 0.15,
    connections: o.connections,
    snapshotDir: o.snapshotDir,
    stateDir: o.stateDir,
    serverNodeArgs: o.serverNodeArgs,
    halfRateSeconds: o.halfRateSeconds,
    log: o.log,
    command: o.command,
  };
  const chosen = (c: HttpCase): boolean => o.only === undefined || o.only.includes(c.name);
  const every = [
    ...ALL_CASES,
    ...VARIED_CASES,
    ...QUERY_CASES,
    ...FIRST_ASK_CASES,
    ...FORMAT_CASES,
    ...UNCACHED_CASES,
    ...QUERY_UNCACHED_CASES,
    POOL_SCREEN,
  ];
  const unknown = (o.only ?? []).filter((name) => !every.some((c) => c.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown HTTP case(s): ${unknown.join(', ')}; cases: ${every.map((c) => c.name).join(', ')}`);
  const cases = ALL_CASES.filter(chosen);
  const formatCases = FORMAT_CASES.filter(chosen);
  const variedCases = unique([...VARIED_CASES, ...QUERY_CASES, ...FIRST_ASK_CASES]).filter(chosen);
  const uncachedCases = [...UNCACHED_CASES, ...QUERY_UNCACHED_CASES].filter(chosen);
  let inline: ComparisonResult | null = null;
  let formats: ComparisonResult | null = null;
  let varied: ComparisonResult | null = null;
  let uncached: ComparisonResult | null = null;
  let pool: ComparisonResult | null = null;
  if (cases.length > 0) {
    o.log(`HTTP: ${cases.length} case(s) as served by default (answer cache on, screens inline)`);
    inline = await runComparison({ ...common, cases });
  }
  if (variedCases.length > 0) {
    o.log(`HTTP: ${variedCases.length} varied case(s): many distinct requests each, every format and encoding`);
    varied = await runComparison({ ...common, cases: variedCases, halfRateSeconds: 0 });
  }
  if (formatCases.length > 0) {
    o.log(`HTTP: ${formatCases.length} case(s) in msgpack, flatbuffers, gzip and br, as served (answer cache on)`);
    formats = await runComparison({ ...common, cases: formatCases, halfRateSeconds: 0 });
  }
  if (uncachedCases.length > 0) {
    o.log(`HTTP: ${uncachedCases.length} case(s) with RESPONSE_CACHE_MB=0 (every answer rendered)`);
    uncached = await runComparison({ ...common, cases: uncachedCases, serverEnv: NO_ANSWER_CACHE, halfRateSeconds: 0 });
  }
  if (chosen(POOL_SCREEN)) {
    o.log('HTTP: the screen again with SCREEN_POOL_MIN_ROWS=0 and no answer cache (every screen on the pool)');
    pool = await runComparison({
      ...common,
      cases: [POOL_SCREEN],
      serverEnv: { ...NO_ANSWER_CACHE, SCREEN_POOL_MIN_ROWS: '0' },
    });
  }
  return {
    inline,
    varied,
    formats,
    uncached,
    pool,
    targets: targetChecks(casesOf({ inline, varied, formats, uncached, pool })),
  };
}

/** Every case result, in table order. */
function casesOf(r: Pick<EndpointsResult, 'inline' | 'varied' | 'formats' | 'uncached' | 'pool'>): CaseResult[] {
  return [
    ...(r.inline?.cases ?? []),
    ...(r.varied?.cases ?? []),
    ...(r.formats?.cases ?? []),
    ...(r.uncached?.cases ?? []),
    ...(r.pool?.cases ?? []),
  ];
}

/** `cases` with each name once (the first case of a name kept). */
const unique = (cases: HttpCase[]): HttpCase[] =>
  cases.filter((c, i) => cases.findIndex((d) => d.name === c.name) === i);

function targetChecks(cases: CaseResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of cases)
    if (/\(varied\)$/.test(c.name))
      checks.push({
        what: `${c.name}: ours' p99 at full load against raw's (${c.ours.p99.toFixed(2)} / ${c.raw.p99.toFixed(2)} ms)`,
        value: `${(c.ours.p99 / c.raw.p99).toFixed(2)}×`,
        target: `≤ ${P99_OF_RAW_TARGET}×`,
        met: c.ours.p99 <= P99_OF_RAW_TARGET * c.raw.p99,
      });
  for (const c of cases) {
    const min = RATIO_TARGETS[c.name];
    if (min !== undefined)
      checks.push({
        what: `${c.name}: ours/raw req/s`,
        value: `${(c.ratio * 100).toFixed(1)}%`,
        target: `≥ ${Math.round(min * 100)}%`,
        met: c.ratio >= min,
      });
  }
  for (const c of cases) {
    if (c.halfRate === null) continue;
    const h = c.halfRate.ours;
    checks.push({
      what: `${c.name}: p99 at ${Math.round(h.rps).toLocaleString('en-US')} req/s (half of max)`,
      value: `${h.p99.toFixed(3)} ms`,
      target: `< ${P99_TARGET_MS} ms`,
      met: h.p99 < P99_TARGET_MS,
    });
  }
  return checks;
}

/** The tables of the HTTP part, as printed. */
export function formatEndpoints(r: EndpointsResult): string {
  const any = (r.inline ?? r.varied ?? r.formats ?? r.uncached ?? r.pool)!;
  const all = casesOf(r);
  const lt = any.loadTool;
  const lines = [
    `HTTP: ours vs raw uWS sending the same header and body bytes (the raw server replays our probe answer's headers — Content-Type, Content-Encoding, ETag, Cache-Control, Vary, X-Request-Id, X-Data-Version, Link — and body; uWS adds Date, Content-Length and uWebSockets to both) — ${lt.version}, -t1 -c${lt.connections}, keep-alive, ${lt.seconds} s per side × ${lt.rounds} alternating rounds (median) after ${lt.warmupSeconds} s warm-up`,
    `machine: ${any.machine.cores} cores (${any.machine.cpuModel}), Node ${any.machine.node}; ${any.pinning.note}`,
    'cases as served by default (answers cached per Dataset, kept on their second ask); "(varied)": 1,000 distinct requests per case asked in turn, the raw server answering each with its own bytes (body B: their mean), formats by Accept; "… msgpack", "… flatbuffers": format=, "… gzip", "… br": JSON with that Accept-Encoding (the compressed body kept with the cached answer), body B as sent; "(uncached)": RESPONSE_CACHE_MB=0, every answer rendered from the row caches; "(pool)": that and SCREEN_POOL_MIN_ROWS=0, the pool worker pinned with the server',
    formatTable(all),
  ];
  if (all.some((c) => c.ours.noisy || c.raw.noisy))
    lines.push('* other processes used > 15% of a core during that measurement even after retries');
  lines.push(
    `ours/raw per round: ${all.map((c) => `${c.name} ${c.rounds.map((x) => `${(x.ratio * 100).toFixed(0)}%`).join('/')}`).join('; ')}`,
  );
  lines.push(
    '',
    `Latency at half of ours' maximum rate (both servers offered the same rate; wrk ${lt.rateFlag ? 'with -R' : 'has no -R: a Lua delay() per connection, the ask tuned by up to 3 short probes; req/s is the rate achieved'})`,
    formatHalfRateTable(all, P99_TARGET_MS),
    `ours p99 per half-rate round (ms): ${all
      .filter((c) => c.halfRate !== null)
      .map((c) => `${c.name} ${c.halfRate!.rounds.map((x) => x.ours.p99.toFixed(2)).join('/')}`)
      .join('; ')}`,
    '',
    "Targets: ours/raw req/s per case (cached JSON, msgpack, flatbuffers, gzip, br; uncached and pool beside), and ours' p99 at half of its maximum rate",
    ...r.targets.map((t) => `  ${t.met ? 'met    ' : 'MISSED '} ${t.what}: ${t.value} (target ${t.target})`),
  );
  return lines.join('\n');
}
