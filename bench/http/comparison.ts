// One comparison run: our server and the raw uWS ceiling sending the same header and body bytes, loaded by wrk one at a time, in alternating rounds.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BATCH_SYMBOLS, type CaseContext, checkAnswer, type HttpCase, pastDay, VARIED_REQUESTS } from './cases.js';
import { stopAll } from './children.js';
import { machineBusy, watchCpu, watchMachine } from './cpu-time.js';
import { httpGet } from './http-get.js';
import { choosePinning, type Pinning } from './pinning.js';
import { ensureSnapshot, internalKey, REPO, type RunningServer, startOurServer, startRawServer } from './servers.js';
import { ensureWrk, runWrk, type WrkResult, wrkHasRateFlag, wrkVersion } from './wrk.js';

export interface ComparisonOptions {
  cases: HttpCase[];
  /** Measured seconds per side, case and round (whole seconds: wrk's -d). */
  seconds: number;
  /** Unmeasured seconds of load on each server and case before the rounds (JIT, caches), 0 for none. */
  warmupSeconds: number;
  /** Rounds of ours + raw; the order alternates each round and the median round is reported. */
  rounds: number;
  /**
   * A measurement during which other processes used more than this many cores is
   * retried (after waiting for a quiet machine) up to `retries` times, then kept as noisy.
   */
  maxOtherCpu: number;
  retries: number;
  connections: number;
  snapshotDir: string;
  /** Our server's state dir; reusing it skips the snapshot load on later runs. */
  stateDir: string;
  /** Where the JSON goes (its folder is created); none: the caller writes it. */
  outFile?: string;
  /** Extra environment of our server (e.g. SCREEN_POOL_MIN_ROWS=0 for the pool mode), recorded in the JSON. */
  serverEnv?: Record<string, string>;
  /**
   * Seconds of the latency run at half of each case's measured maximum (ours' median req/s),
   * against ours and the raw server at that same offered rate; 0 or absent: none.
   */
  halfRateSeconds?: number;
  /** Extra node flags for our server, e.g. ['--cpu-prof', '--cpu-prof-dir', DIR]. */
  serverNodeArgs?: string[];
  /** Progress lines. */
  log: (line: string) => void;
  /** The command line recorded in the JSON. */
  command: string;
}

/**
 * One side of a case: wrk's figures, how busy the server's process was (1 = one core),
 * and `otherCpu`: cores' worth of user/system/steal time spent by anything but the
 * server and wrk during the run (other tenants of a shared machine; near 0 when quiet).
 */
export type SideResult = WrkResult & { serverCpu: number | null; otherCpu: number | null; noisy: boolean };

export interface CaseResult {
  name: string;
  path: string;
  /** Request headers sent beside the API key (Accept-Encoding…), by the probe and wrk alike. */
  requestHeaders: Record<string, string>;
  /** The headers of our answer that the raw server replays (all but Date, Content-Length, Connection, which uWS writes). */
  answerHeaders: [string, string][];
  /** The body as sent (compressed when the case asks for an encoding). */
  bodyBytes: number;
  /** The round with the median req/s of each side. */
  ours: SideResult;
  raw: SideResult;
  /** Median ours req/s over median raw req/s: the headline. */
  ratio: number;
  /** Every round, in order, with its own ratio (the spread shows how noisy the machine was). */
  rounds: { ours: SideResult; raw: SideResult; ratio: number }[];
  /** Latency at half of ours' maximum rate, or null when not measured. */
  halfRate: HalfRateResult | null;
}

/**
 * Both servers offered the same rate: half of ours' median req/s, in as many alternating
 * rounds as the maximum. This wrk has no -R: the rate comes from a Lua delay() between a
 * response and the next request on each connection (closed loop, no coordinated-omission
 * correction), tuned by short probes. `rps` of each side is the rate really achieved.
 */
export interface HalfRateResult {
  targetRps: number;
  /** The round with the median p99 of each side. */
  ours: SideResult;
  raw: SideResult;
  /** Every round, in order (as many as the maximum-rate rounds). */
  rounds: { ours: SideResult; raw: SideResult }[];
}

export interface ComparisonResult {
  generated: string;
  command: string;
  /** `busyBefore`: share of all cores busy in the second before the run (other work skews figures). */
  machine: { cores: number; cpuModel: string; node: string; platform: string; busyBefore: number | null };
  loadTool: {
    name: 'wrk';
    version: string;
    threads: 1;
    connections: number;
    seconds: number;
    warmupSeconds: number;
    rounds: number;
    maxOtherCpu: number;
    retries: number;
    keepAlive: true;
    rateFlag: boolean;
  };
  /** The code measured: HEAD and whether the working tree differed from it (dist/ is built from the tree). */
  code: { commit: string | null; dirty: boolean | null };
  pinning: Pinning;
  /** Extra environment our server ran with ({} for none). */
  serverEnv: Record<string, string>;
  cases: CaseResult[];
}

/** Read-only git queries; null when this is not a git checkout. */
function codeVersion(): ComparisonResult['code'] {
  const git = (...args: string[]): string | null => {
    const out = spawnSync('git', ['-C', REPO, ...args], { encoding: 'utf8' });
    return out.status === 0 ? out.stdout.trim() : null;
  };
  const status = git('status', '--porcelain', '--untracked-files=no');
  return { commit: git('rev-parse', 'HEAD'), dirty: status === null ? null : status !== '' };
}

interface Target {
  label: string;
  server: RunningServer;
}

/** What wrk sends for a case: its path and query (or, varied, each of `paths` in turn), and its headers beyond the key. */
interface Ask {
  path: string;
  paths?: string[];
  headers: Readonly<Record<string, string>>;
}

/** One measured wrk run against `target`, with the server's and everyone else's CPU. */
async function measure(
  target: Target,
  ask: Ask,
  key: string,
  pin: Pinning,
  o: ComparisonOptions,
  seconds: number,
  rate?: number,
): Promise<SideResult> {
  // The same request bytes to both sides: the raw server parses the headers and ignores them.
  const load = {
    url: `http://127.0.0.1:${target.server.port}${ask.path}`,
    headers: { 'X-API-Key': key, ...ask.headers },
    paths: ask.paths,
    connections: o.connections,
    core: pin.loadCore,
    seconds,
    rate,
  };
  const cpu = watchCpu(target.server.child.pid);
  const machine = watchMachine();
  let serverCpu: number | null = null;
  let result: WrkResult;
  try {
    result = await runWrk(load);
  } finally {
    serverCpu = cpu.stop();
  }
  const busy = machine.stop();
  const otherCpu =
    busy === null || serverCpu === null || result.wrkCpu === null
      ? null
      : Math.max(0, busy - serverCpu - result.wrkCpu);
  return { ...result, serverCpu, otherCpu, noisy: otherCpu !== null && otherCpu > o.maxOtherCpu };
}

/** Waits (up to `maxMs`) for a second in which the machine is nearly idle: others' load skews one side. */
async function waitQuiet(o: ComparisonOptions, maxMs = 30_000): Promise<void> {
  const cores = cpus().length;
  const until = performance.now() + maxMs;
  let said = false;
  while (performance.now() < until) {
    const busy = await machineBusy(1000);
    if (busy === null || busy * cores <= o.maxOtherCpu) return;
    if (!said) o.log(`waiting for a quiet machine (${Math.round(busy * cores * 100)}% of a core busy elsewhere)`);
    said = true;
  }
}

/** A measurement retried while other processes disturbed it (see `maxOtherCpu`). */
async function measureQuietly(
  target: Target,
  ask: Ask,
  key: string,
  pin: Pinning,
  o: ComparisonOptions,
  seconds = o.seconds,
  rate?: number,
): Promise<SideResult> {
  let result = await measure(target, ask, key, pin, o, seconds, rate);
  for (let attempt = 1; result.noisy && attempt <= o.retries; attempt++) {
    o.log(
      `${target.label}: others used ${Math.round(result.otherCpu! * 100)}% of a core; retry ${attempt}/${o.retries}`,
    );
    await waitQuiet(o);
    result = await measure(target, ask, key, pin, o, seconds, rate);
  }
  return result;
}

/**
 * The ask that makes wrk offer about `rate` req/s. The closed loop does not achieve what it
 * is asked: delay() works in whole milliseconds of wrk's timers and each response time adds
 * to the gap. Up to three short probes (secant steps from the ask to the rate achieved)
 * find the ask that lands within 5 %; the measured runs use the best of them.
 */
async function askForRate(
  target: Target,
  ask: Ask,
  key: string,
  pin: Pinning,
  o: ComparisonOptions,
  rate: number,
): Promise<number> {
  const probeSeconds = Math.min(2, o.halfRateSeconds!);
  let best: { ask: number; got: number } | null = null;
  let prev: { ask: number; got: number } | null = null;
  let asked = rate;
  for (let k = 0; k < 3; k++) {
    const point = { ask: asked, got: (await measure(target, ask, key, pin, o, probeSeconds, asked)).rps };
    if (best === null || Math.abs(point.got - rate) < Math.abs(best.got - rate)) best = point;
    if (Math.abs(point.got - rate) <= 0.05 * rate) break;
    const next: number =
      prev !== null && point.got !== prev.got
        ? prev.ask + ((rate - prev.got) * (point.ask - prev.ask)) / (point.got - prev.got)
        : (asked * rate) / Math.max(point.got, 1);
    [prev, asked] = [point, Math.min(Math.max(next, rate / 2), rate * 4)];
  }
  return best!.ask;
}

/** GET of a JSON answer that must be 200. */
async function getJson<T>(port: number, path: string, key: string): Promise<T> {
  const res = await httpGet(`http://127.0.0.1:${port}${path}`, { 'x-api-key': key });
  if (res.status !== 200)
    throw new Error(`GET ${path}: status ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(res.body.toString('utf8')) as T;
}

/**
 * A market's first symbols (listing order: stable, a full history in the demo) and latest
 * trading day, read from the running server.
 */
export async function caseContext(port: number, market: string, key: string): Promise<CaseContext> {
  const listed = await getJson<{ data: { symbol: string }[] }>(
    port,
    `/api/v1/${market}/symbols?limit=${BATCH_SYMBOLS}`,
    key,
  );
  const symbols = listed.data.map((d) => d.symbol);
  if (symbols.length === 0) throw new Error(`market ${market} lists no symbol`);
  const markets = await getJson<{ data: { market: string; start_date: string | null; end_date: string | null }[] }>(
    port,
    '/api/v1/markets',
    key,
  );
  const row = markets.data.find((m) => m.market === market);
  if (!row?.start_date || !row.end_date) throw new Error(`market ${market} has no end_date in /markets`);
  const many: string[] = [];
  for (let offset = 0; many.length < VARIED_REQUESTS; offset += 100) {
    const page = await getJson<{ data: { symbol: string }[] }>(
      port,
      `/api/v1/${market}/symbols?limit=100&offset=${offset}`,
      key,
    );
    many.push(...page.data.slice(0, VARIED_REQUESTS - many.length).map((d) => d.symbol));
    if (page.data.length < 100) break;
  }
  return { symbol: symbols[0], symbols, date: row.end_date, asOf: pastDay(row.start_date, row.end_date), many };
}

/**
 * Asks ours every path of a varied case (as wrk will: the same headers) and writes what each answer
 * was for the raw server: `<dir>.bin` (the bodies one after another) and `<dir>.json` (per path its
 * offset, length and replayed headers). Every answer must be 200.
 */
async function variedAnswers(
  port: number,
  key: string,
  ask: Ask,
  stem: string,
): Promise<{ file: string; meanBodyBytes: number; firstHeaders: [string, string][] }> {
  const bodies: Buffer[] = [];
  const entries: { path: string; offset: number; length: number; headers: [string, string][] }[] = [];
  let offset = 0;
  for (const path of ask.paths!) {
    const res = await httpGet(`http://127.0.0.1:${port}${path}`, { 'x-api-key': key, ...ask.headers });
    if (res.status !== 200)
      throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    entries.push({ path, offset, length: res.body.length, headers: replayedHeaders(res.rawHeaders) });
    bodies.push(res.body);
    offset += res.body.length;
  }
  writeFileSync(`${stem}.bin`, Buffer.concat(bodies));
  writeFileSync(`${stem}.json`, JSON.stringify({ bodies: `${stem}.bin`, entries }));
  return { file: `${stem}.json`, meanBodyBytes: Math.round(offset / entries.length), firstHeaders: entries[0].headers };
}

/** Headers uWS writes on every answer by itself (or that belong to the connection): never replayed. */
export const WRITTEN_BY_UWS = /^(date|content-length|uwebsockets|connection|transfer-encoding|keep-alive)$/i;

/**
 * The headers of an answer the raw server replays, in order as sent: all but WRITTEN_BY_UWS,
 * so both servers send the same header bytes apart from the date.
 */
export function replayedHeaders(rawHeaders: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (!WRITTEN_BY_UWS.test(rawHeaders[i])) out.push([rawHeaders[i], rawHeaders[i + 1]]);
  return out;
}

/** The result with the median p99 (the upper middle one for an even count: never the flattering side). */
function medianP99(results: SideResult[]): SideResult {
  return [...results].sort((a, b) => a.p99 - b.p99)[Math.floor(results.length / 2)];
}

/** The result with the median req/s (the lower middle one for an even count). */
function median(results: SideResult[]): SideResult {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor((results.length - 1) / 2)];
}

const summary = (r: SideResult): string =>
  `${Math.round(r.rps)} req/s, p99 ${r.p99.toFixed(3)} ms, server CPU ${r.serverCpu === null ? '?' : `${Math.round(r.serverCpu * 100)}%`}` +
  (r.noisy ? ` — NOISY: other processes used ${Math.round(r.otherCpu! * 100)}% of a core` : '');

/**
 * Starts our server, reads each case's exact answer (with the case's headers), starts one
 * raw server per case replaying that answer's headers and body bytes, then loads one server at a time (both idle otherwise, on the same core),
 * alternating ours/raw per round so drift on a shared machine hits both sides alike.
 * Every process started here is stopped before this returns or throws.
 */
export async function runComparison(o: ComparisonOptions): Promise<ComparisonResult> {
  const pin = choosePinning();
  o.log(pin.note);
  const noWrk = ensureWrk(o.log);
  if (noWrk !== null) throw new Error(noWrk);
  const tmp = mkdtempSync(join(tmpdir(), 'mdq-http-bench-'));
  try {
    await ensureSnapshot(o.snapshotDir, o.log);
    const key = await internalKey(o.stateDir, o.log);
    o.log(`starting our server (snapshot ${o.snapshotDir}, state ${o.stateDir})`);
    const ours = await startOurServer({
      stateDir: o.stateDir,
      snapshotDir: o.snapshotDir,
      core: pin.serverCore,
      nodeArgs: o.serverNodeArgs,
      env: o.serverEnv,
      log: o.log,
    });
    const contexts = new Map<string, CaseContext>();
    const prepared: {
      c: HttpCase;
      ask: Ask;
      bodyBytes: number;
      answerHeaders: [string, string][];
      raw: RunningServer;
    }[] = [];
    for (const [i, c] of o.cases.entries()) {
      if (!contexts.has(c.market)) contexts.set(c.market, await caseContext(ours.port, c.market, key));
      const ctx = contexts.get(c.market)!;
      const ask: Ask = { path: c.path(ctx), paths: c.paths?.(ctx), headers: c.headers ?? {} };
      // The probe sends what wrk will send and keeps the bytes as they came (compressed, binary).
      const res = await httpGet(`http://127.0.0.1:${ours.port}${ask.path}`, { 'x-api-key': key, ...ask.headers });
      if (res.status !== 200)
        throw new Error(
          `${c.name}: GET ${ask.path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`,
        );
      try {
        checkAnswer(c, res, contexts.get(c.market)!);
      } catch (err) {
        throw new Error(`${c.name}: GET ${ask.path}: ${err instanceof Error ? err.message : String(err)}`);
      }
      // A varied case: every path's answer as ours sends it (the first asked again: its request id is another).
      const answersFile =
        ask.paths === undefined ? undefined : await variedAnswers(ours.port, key, ask, join(tmp, `answers-${i}`));
      const answerHeaders = answersFile?.firstHeaders ?? replayedHeaders(res.rawHeaders);
      const bodyFile = join(tmp, `body-${i}.bin`);
      const headersFile = join(tmp, `headers-${i}.json`);
      writeFileSync(bodyFile, res.body);
      writeFileSync(headersFile, JSON.stringify(answerHeaders));
      const raw = await startRawServer({
        bodyFile,
        headersFile,
        answersFile: answersFile?.file,
        core: pin.serverCore,
        log: o.log,
      });
      const check = await httpGet(`http://127.0.0.1:${raw.port}${ask.path}`, { 'x-api-key': key, ...ask.headers });
      if (!check.body.equals(res.body))
        throw new Error(`raw server answered ${check.body.length} bytes, not the ${res.body.length} of ours`);
      const rawHeaders = replayedHeaders(check.rawHeaders);
      if (JSON.stringify(rawHeaders) !== JSON.stringify(answerHeaders))
        throw new Error(
          `raw server sent headers ${JSON.stringify(rawHeaders)}, not ours ${JSON.stringify(answerHeaders)}`,
        );
      o.log(
        `${c.name}: GET ${ask.path} → ${res.body.length} bytes and ${answerHeaders.length} headers (${answerHeaders.map(([n]) => n).join(', ')}); raw server on :${raw.port} sends the same`,
      );
      prepared.push({ c, ask, bodyBytes: answersFile?.meanBodyBytes ?? res.body.length, answerHeaders, raw });
    }
    const busyBefore = await machineBusy();
    await waitQuiet(o);

    const cases: CaseResult[] = [];
    for (const { c, ask, bodyBytes, answerHeaders, raw } of prepared) {
      const sides: Target[] = [
        { label: 'ours', server: ours },
        { label: 'raw', server: raw },
      ];
      if (o.warmupSeconds > 0) {
        for (const t of sides) {
          o.log(`${c.name} / ${t.label}: warm-up ${o.warmupSeconds} s`);
          await measure(t, ask, key, pin, o, o.warmupSeconds);
        }
      }
      const rounds: CaseResult['rounds'] = [];
      for (let r = 0; r < o.rounds; r++) {
        const got: Record<string, SideResult> = {};
        for (const t of r % 2 === 0 ? sides : [...sides].reverse()) {
          o.log(`${c.name} / ${t.label} (round ${r + 1}/${o.rounds}): wrk -t1 -c${o.connections} -d${o.seconds}s`);
          got[t.label] = await measureQuietly(t, ask, key, pin, o);
          o.log(`${c.name} / ${t.label}: ${summary(got[t.label])}`);
        }
        rounds.push({ ours: got.ours, raw: got.raw, ratio: got.ours.rps / got.raw.rps });
      }
      const [mo, mr] = [median(rounds.map((x) => x.ours)), median(rounds.map((x) => x.raw))];
      let halfRate: HalfRateResult | null = null;
      if ((o.halfRateSeconds ?? 0) > 0) {
        // Probed once per side, then measured in alternating rounds like the maximum: one stall of a shared machine is one round, not the figure.
        const targetRps = mo.rps / 2;
        const asks: Record<string, number> = {};
        for (const t of sides) asks[t.label] = await askForRate(t, ask, key, pin, o, targetRps);
        const runs: Record<string, SideResult[]> = { ours: [], raw: [] };
        for (let r = 0; r < o.rounds; r++) {
          for (const t of r % 2 === 0 ? sides : [...sides].reverse()) {
            o.log(
              `${c.name} / ${t.label} (half-rate round ${r + 1}/${o.rounds}): ${o.halfRateSeconds} s at half of ours' maximum (${Math.round(targetRps)} req/s offered)`,
            );
            const got = await measureQuietly(t, ask, key, pin, o, o.halfRateSeconds!, asks[t.label]);
            runs[t.label].push(got);
            o.log(`${c.name} / ${t.label} at half rate: ${summary(got)}`);
          }
        }
        halfRate = {
          targetRps,
          ours: medianP99(runs.ours),
          raw: medianP99(runs.raw),
          rounds: runs.ours.map((ours, r) => ({ ours, raw: runs.raw[r] })),
        };
      }
      cases.push({
        name: c.name,
        path: ask.path,
        requestHeaders: { ...ask.headers },
        answerHeaders,
        bodyBytes,
        ours: mo,
        raw: mr,
        ratio: mo.rps / mr.rps,
        rounds,
        halfRate,
      });
    }
    await stopAll(); // a profiled server writes its profile on the way out
    const result: ComparisonResult = {
      generated: new Date().toISOString(),
      command: o.command,
      machine: {
        cores: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        busyBefore,
      },
      loadTool: {
        name: 'wrk',
        version: wrkVersion(),
        threads: 1,
        connections: o.connections,
        seconds: o.seconds,
        warmupSeconds: o.warmupSeconds,
        rounds: o.rounds,
        maxOtherCpu: o.maxOtherCpu,
        retries: o.retries,
        keepAlive: true,
        rateFlag: wrkHasRateFlag(),
      },
      code: codeVersion(),
      pinning: pin,
      serverEnv: o.serverEnv ?? {},
      cases,
    };
    if (o.outFile !== undefined) {
      mkdirSync(dirname(o.outFile), { recursive: true });
      writeFileSync(o.outFile, `${JSON.stringify(result, null, 2)}\n`);
    }
    return result;
  } finally {
    await stopAll(); // anything still running after an error
    rmSync(tmp, { recursive: true, force: true });
  }
}
