// Reload figures on the full demo snapshot: latency and errors under load without and with a SIGHUP every 2 s, and RSS.
//
//   node dist/bench/ops/reload.js [--seconds 30] [--interval 2] [--baseline 15] [--connections 4] [--rate 200]
//
// Two full demo snapshots (snapshots/demo: default seed; snapshots/demo-b: seed 20261031,
// generated when missing) sit behind the symlink snapshots/demo-current. The server starts
// on a fresh state (var/bench-reload) over A, stores B once on a SIGHUP, switches back (from
// then on each switch is recognised and costs one open), then: a baseline of steady load,
// then the same load while the symlink flips and a SIGHUP goes out every --interval seconds.
// Load comes from a separate Node process (bench/ops/load-client.ts). Prints a table and
// writes bench/results/reload.json.

import { fork } from 'node:child_process';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_SEED, generateDemoSnapshot } from '../../loaders/demo/index.js';
import { repoint, type ServerProcess, startServerProcess } from '../../test/helpers/server-process.js';
import type { LoadConfig, LoadResult } from './load-client.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SEED_B = 20261031;
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    interval: { type: 'string', default: '2' },
    baseline: { type: 'string', default: '15' },
    connections: { type: 'string', default: '4' },
    rate: { type: 'string', default: '200' },
  },
});
const SECONDS = Number(values.seconds);
const INTERVAL = Number(values.interval);
const BASELINE = Number(values.baseline);
const CONNECTIONS = Number(values.connections);
const RATE = Number(values.rate);

const A = join(ROOT, 'snapshots/demo');
const B = join(ROOT, 'snapshots/demo-b');
const LINK = join(ROOT, 'snapshots/demo-current');
const STATE = join(ROOT, 'var/bench-reload');
const RESULT = join(ROOT, 'bench/results/reload.json');

const epochMs = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string): void => console.error(`[bench/ops/reload] ${line}`);
const mb = (bytes: number | null): string => (bytes === null ? '-' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function ensureDemo(dir: string, seed: number): Promise<void> {
  if (await exists(join(dir, 'manifest.json'))) {
    const note = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).note as string;
    if (note.includes(`seed ${seed},`) && note.includes('symbol scale 1,')) return;
    throw new Error(`${dir} holds another snapshot (${note}); move it away first`);
  }
  say(`generating the full demo snapshot with seed ${seed} into ${dir}`);
  await generateDemoSnapshot(dir, { seed, progress: true });
}

/** Symbols listed in both snapshots' symbols.csv of `market`, the first `n`. */
async function commonSymbols(market: string, n: number): Promise<string[]> {
  const read = async (dir: string) =>
    new Set(
      (await readFile(join(dir, market, 'symbols.csv'), 'utf8'))
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0])
        .filter(Boolean),
    );
  const [a, b] = [await read(A), await read(B)];
  return [...a].filter((s) => b.has(s)).slice(0, n);
}

/** A log line's outcome: a swap (with version and seconds), unchanged, rejected or failed. */
interface ReloadEvent {
  at: number;
  kind: 'loaded' | 'unchanged' | 'rejected' | 'failed';
  version: string | null;
  seconds: number | null;
}

function watchReloads(server: ServerProcess, events: ReloadEvent[], onEvent: (e: ReloadEvent) => void): () => void {
  let seen = server.log.length;
  const timer = setInterval(() => {
    for (; seen < server.log.length; seen++) {
      const line = server.log[seen];
      const m =
        /reload: (now serving (\S+) .* in ([\d.]+) s|unchanged, still serving (\S+) \(([\d.]+) s\)|snapshot rejected|failed)/.exec(
          line,
        );
      if (m === null) continue;
      const e: ReloadEvent =
        m[2] !== undefined
          ? { at: epochMs(), kind: 'loaded', version: m[2], seconds: Number(m[3]) }
          : m[4] !== undefined
            ? { at: epochMs(), kind: 'unchanged', version: m[4], seconds: Number(m[5]) }
            : { at: epochMs(), kind: /rejected/.test(m[1]) ? 'rejected' : 'failed', version: null, seconds: null };
      events.push(e);
      onEvent(e);
    }
  }, 2);
  return () => clearInterval(timer);
}

/** Runs the load child for `config.seconds`; `during` runs alongside it. */
function runLoad(config: LoadConfig): { pid: number; result: Promise<LoadResult> } {
  const child = fork(fileURLToPath(new URL('./load-client.js', import.meta.url)), [JSON.stringify(config)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = new Promise<LoadResult>((resolve, reject) => {
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('exit', (code) => reject(new Error(`load client exited with ${code} before reporting`)));
  });
  return { pid: child.pid!, result };
}

interface PhaseFigures {
  requests: number;
  non2xx: number;
  connectionErrors: number;
  failureKinds: Record<string, number>;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function figures(result: LoadResult): PhaseFigures {
  const ms: number[] = [];
  let non2xx = 0;
  const failureKinds: Record<string, number> = {};
  for (const lane of result.lanes) {
    lane.status.forEach((s, i) => {
      if (s === 0) return;
      ms.push(lane.ms[i]);
      if (s < 200 || s > 299) non2xx++;
    });
    for (const f of lane.failures) failureKinds[f.kind] = (failureKinds[f.kind] ?? 0) + 1;
  }
  const sorted = Float64Array.from(ms).sort();
  const connectionErrors = Object.values(failureKinds).reduce((a, b) => a + b, 0);
  return {
    requests: ms.length + connectionErrors,
    non2xx,
    connectionErrors,
    failureKinds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.at(-1) ?? NaN,
  };
}

/**
 * Per connection, maps each response to the reload generation it came from: never an
 * earlier one than the last response's, never one swapped in after the request was
 * answered, never one older than what was already swapped in when it was sent (the
 * swap's log line is seen after the swap, so that bound is safe). Counts responses
 * that no generation explains.
 */
function versionOrder(result: LoadResult, generations: { version: string; at: number }[], slackMs = 50) {
  let violations = 0;
  let unknown = 0;
  const sequences: string[][] = [];
  for (const lane of result.lanes) {
    let g = 0;
    const seq: string[] = [];
    lane.status.forEach((s, i) => {
      if (s === 0) return;
      const vi = lane.version[i];
      if (vi < 0) {
        unknown++;
        return;
      }
      const version = result.versions[vi];
      const sent = lane.sentAt[i];
      const received = sent + lane.ms[i];
      while (g + 1 < generations.length && generations[g + 1].at <= sent) g++; // swapped before the send
      let h = g;
      while (h < generations.length && !(generations[h].version === version)) h++;
      if (h >= generations.length || generations[h].at > received + slackMs) {
        violations++;
        return;
      }
      g = h;
      if (seq.at(-1) !== version) seq.push(version);
    });
    sequences.push(seq);
  }
  return { violations, unknown, sequences };
}

async function main(): Promise<void> {
  await ensureDemo(A, DEFAULT_SEED);
  await ensureDemo(B, SEED_B);
  await rm(STATE, { recursive: true, force: true });
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await rm(LINK, { force: true });
  await repoint(LINK, A);

  say('starting the server over A on a fresh state (stores A: ~30 s)');
  const t0 = performance.now();
  const server = await startServerProcess({ snapshot: LINK, state: STATE, timeoutMs: 300_000 });
  const cleanup = async () => void (await server.kill());
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    const startSeconds = (performance.now() - t0) / 1000;
    const key = server.keys.internal!;
    const versionA = server.version;
    const rss: Record<string, number | null> = { afterStart: await server.rss() };
    const events: ReloadEvent[] = [];
    const generations: { version: string; at: number }[] = [{ version: versionA, at: 0 }];
    let onEvent: (e: ReloadEvent) => void = () => {};
    const stopWatching = watchReloads(server, events, (e) => {
      if (e.kind === 'loaded') generations.push({ version: e.version!, at: e.at });
      onEvent(e);
    });
    const nextEvent = (timeoutMs: number) =>
      new Promise<ReloadEvent>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reload outcome within ${timeoutMs} ms`)), timeoutMs);
        onEvent = (e) => {
          clearTimeout(timer);
          onEvent = () => {};
          resolve(e);
        };
      });

    say('storing B once (SIGHUP onto B: a full read on the reload worker)');
    await repoint(LINK, B);
    let pending = nextEvent(300_000);
    server.signal('SIGHUP');
    const storeB = await pending;
    if (storeB.kind !== 'loaded') throw new Error(`storing B: ${JSON.stringify(storeB)}`);
    const versionB = storeB.version!;
    await repoint(LINK, A);
    pending = nextEvent(60_000);
    server.signal('SIGHUP');
    const backToA = await pending;
    if (backToA.kind !== 'loaded' || backToA.version !== versionA)
      throw new Error(`switching back to A: ${JSON.stringify(backToA)}`);
    say(`B stored and opened in ${storeB.seconds} s; back to A (recognised, open only) in ${backToA.seconds} s`);
    await sleep(2000);
    rss.afterWarmup = await server.rss();

    const ashare = await commonSymbols('ashare', 3);
    const usstock = await commonSymbols('usstock', 2);
    const paths = [
      ...ashare.map((s) => `/api/v1/ashare/klines/${s}?limit=100`),
      ...usstock.map((s) => `/api/v1/usstock/klines/${s}?limit=20`),
      `/api/v1/ashare/detail/${ashare[0]}`,
      `/api/v1/ashare/klines?symbols=${ashare.join(',')}&limit=50`,
      '/api/v1/ashare/screen?sort=change_percent&order=desc&limit=20',
      '/api/v1/markets',
    ];
    const load = (seconds: number): LoadConfig => ({
      port: server.port,
      key,
      connections: CONNECTIONS,
      ratePerConnection: RATE,
      seconds,
      paths,
    });

    say(`baseline: ${BASELINE} s of ${CONNECTIONS} × ${RATE} req/s, no reloads`);
    const baseGenerations = generations.length;
    const baseline = await runLoad(load(BASELINE)).result;
    rss.afterBaseline = await server.rss();
    if (generations.length !== baseGenerations) throw new Error('a reload happened during the baseline');

    say(`reloads: ${SECONDS} s of the same load, symlink flipped + SIGHUP every ${INTERVAL} s`);
    const reloadsFrom = events.length;
    const rssSamples: [number, number][] = [];
    const rssAfterReload: (number | null)[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const r = await server.rss();
        if (r !== null) rssSamples.push([epochMs(), r]);
        await sleep(200);
      }
    })();
    onEvent = (e) => {
      if (e.kind === 'loaded') void sleep(500).then(async () => rssAfterReload.push(await server.rss()));
    };
    const phaseStart = epochMs();
    const running = runLoad(load(SECONDS));
    const sighups: number[] = [];
    let target = B;
    for (let at = INTERVAL; at < SECONDS; at += INTERVAL) {
      await sleep(phaseStart + at * 1000 - epochMs());
      await repoint(LINK, target);
      server.signal('SIGHUP');
      sighups.push(epochMs());
      target = target === B ? A : B;
    }
    const during = await running.result;
    // Let the last reload finish before reading the log.
    for (let i = 0; i < 100 && server.log.filter((l) => /reload: reading/.test(l)).length > events.length; i++)
      await sleep(100);
    await sleep(1000);
    sampling = false;
    await sampler;
    rss.afterAllReloads = await server.rss();
    stopWatching();

    const phaseEvents = events.slice(reloadsFrom);
    const loaded = phaseEvents.filter((e) => e.kind === 'loaded');
    const base = figures(baseline);
    const dur = figures(during);
    const order = versionOrder(during, generations);
    const baseOrder = versionOrder(baseline, generations);
    const reloadSeconds = loaded.map((e) => e.seconds!).sort((a, b) => a - b);
    const rssReference = rss.afterBaseline!;
    const rss10 = rssAfterReload[9] ?? null;

    say('stopping the server (SIGTERM)');
    server.signal('SIGTERM');
    const exit = await Promise.race([server.exited, sleep(15_000).then(() => null)]);

    const report = {
      when: new Date().toISOString(),
      cores: cpus().length,
      node: process.version,
      command: `node dist/bench/ops/reload.js --seconds ${SECONDS} --interval ${INTERVAL} --baseline ${BASELINE} --connections ${CONNECTIONS} --rate ${RATE}`,
      snapshots: {
        A: { dir: 'snapshots/demo', seed: DEFAULT_SEED, version: versionA },
        B: { dir: 'snapshots/demo-b', seed: SEED_B, version: versionB },
      },
      setup: { startSeconds, storeBSeconds: storeB.seconds, switchBackSeconds: backToA.seconds },
      load: { connections: CONNECTIONS, ratePerConnection: RATE, paths },
      baseline: {
        seconds: BASELINE,
        ...base,
        versionViolations: baseOrder.violations,
        bodyMismatches: baseline.bodyMismatches,
      },
      reloads: {
        seconds: SECONDS,
        interval: INTERVAL,
        ...dur,
        sighups: sighups.length,
        swaps: loaded.length,
        unchanged: phaseEvents.filter((e) => e.kind === 'unchanged').length,
        rejectedOrFailed: phaseEvents.filter((e) => e.kind === 'rejected' || e.kind === 'failed').length,
        reloadSeconds: {
          min: reloadSeconds[0],
          median: reloadSeconds[Math.floor(reloadSeconds.length / 2)],
          max: reloadSeconds.at(-1),
        },
        versionViolations: order.violations,
        responsesWithoutOneVersion: order.unknown,
        bodyMismatches: during.bodyMismatches,
        versionsPerConnection: order.sequences.map((s) =>
          s.map((v) => (v === versionA ? 'A' : v === versionB ? 'B' : v)).join(''),
        ),
      },
      p99Ratio: dur.p99 / base.p99,
      rss: {
        ...rss,
        afterReload: rssAfterReload,
        after10Reloads: rss10,
        maxDuringReloads: rssSamples.reduce((m, [, r]) => Math.max(m, r), 0),
        ratio10: rss10 === null ? null : rss10 / rssReference,
        ratio10VsStart: rss10 === null || rss.afterStart === null ? null : rss10 / rss.afterStart,
        ratioEnd: rss.afterAllReloads === null ? null : rss.afterAllReloads / rssReference,
      },
      exit: exit === null ? null : { code: exit.code, signal: exit.signal },
      targets: {
        zeroNon2xx: dur.non2xx === 0,
        zeroConnectionErrors: dur.connectionErrors === 0,
        oneVersionPerResponse: order.unknown === 0 && during.bodyMismatches === 0,
        neverOlderAfterNewer: order.violations === 0,
        p99Under3x: dur.p99 < 3 * base.p99,
        rssWithin1_2x: rss10 !== null && rss10 <= 1.2 * rssReference,
      },
    };
    await writeFile(
      RESULT,
      `${JSON.stringify({ ...report, rssSamples: rssSamples.map(([t, r]) => [Math.round(t - phaseStart), r]) }, null, 2)}\n`,
    );

    const row = (name: string, f: PhaseFigures) =>
      `${name.padEnd(16)} ${String(f.requests).padStart(8)} ${String(f.non2xx).padStart(7)} ${String(f.connectionErrors).padStart(9)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(8)} ${f.p999.toFixed(2).padStart(8)} ${f.max.toFixed(1).padStart(8)}`;
    console.log(`\nreload figures: ${report.command}  (${report.cores} cores, node ${report.node})`);
    console.log(
      `A ${versionA}  B ${versionB}; B stored in ${storeB.seconds} s, a switch to a stored version ${backToA.seconds} s`,
    );
    console.log(
      `${'phase'.padEnd(16)} ${'requests'.padStart(8)} ${'non-2xx'.padStart(7)} ${'conn err'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'p99.9 ms'.padStart(8)} ${'max ms'.padStart(8)}`,
    );
    console.log(row('no reloads', base));
    console.log(row(`SIGHUP every ${INTERVAL} s`, dur));
    console.log(`p99 during / without: ${report.p99Ratio.toFixed(2)} × (target < 3 ×)`);
    console.log(
      `SIGHUPs ${sighups.length}, swaps ${loaded.length}, unchanged ${report.reloads.unchanged}, rejected/failed ${report.reloads.rejectedOrFailed}; swap took ${reloadSeconds[0]?.toFixed(2)}–${reloadSeconds.at(-1)?.toFixed(2)} s (median ${report.reloads.reloadSeconds.median?.toFixed(2)})`,
    );
    console.log(
      `versions: order violations ${order.violations}, responses without exactly one version ${order.unknown}, bodies not matching their version ${during.bodyMismatches}`,
    );
    console.log(`versions per connection: ${report.reloads.versionsPerConnection.join(' | ')}`);
    console.log(
      `RSS: start ${mb(rss.afterStart)}, after warm-up ${mb(rss.afterWarmup)}, after baseline ${mb(rss.afterBaseline)}, after 10 reloads ${mb(rss10)} (${report.rss.ratio10?.toFixed(2)} × baseline, ${report.rss.ratio10VsStart?.toFixed(2)} × start; target ≤ 1.2 ×), after all ${mb(rss.afterAllReloads)} (${report.rss.ratioEnd?.toFixed(2)} ×), max during ${mb(report.rss.maxDuringReloads)}`,
    );
    console.log(`RSS 0.5 s after each swap: ${rssAfterReload.map(mb).join(', ')}`);
    console.log(`server exit: ${JSON.stringify(report.exit)}; written ${RESULT}`);
  } finally {
    await cleanup();
  }
}

await main();
