// Editions (stored snapshots read in place from the memory map): open time by data size, restart
// to /readyz, `npm start` to /readyz and where its time goes, the first requests after a restart,
// a one-file reload, memory and disk over ten reloads, the evening job (a day appended to every
// market, then SIGHUP: bench/ops/daily.ts), resident / proportional memory with one and two threads
// and two instances, the cost of checking the parts (structure at start, content in the
// background), and the disk after 40 reloads with KEEP_EDITIONS 1, 2 and 3, and anonymous memory
// over 100 alternating reloads.
//
//   node dist/bench/ops/editions.js [--sizes 0.25:10,1:10,1:16] [--runs 5] [--work DIR]
//                                   [--parts open,restart,start,first,reloads,daily,memory,verify,keep,many-reloads]
//                                   [--reloads 100]
//
// A size is the demo's symbol scale and years of history: 0.25 × 10 y, the full demo (1 × 10 y) and
// 1 × 16 y (1.6 times the full demo's rows; the generator goes no further).
//
// Demo snapshots are generated and stored under --work (default /tmp/mdq-bench-editions, kept
// between runs). The machine's other cores can be kept busy (`--hog`) for the figures "with
// another CPU-heavy process beside it". Prints tables; the JSON goes to bench/results/editions.json.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { partDir } from '../../loaders/edition/layout.js';
import { partFileProblem } from '../../loaders/edition/part-check.js';
import { type PartVerdict, verifyInChild } from '../../loaders/edition/part-verify.js';
import { repoint, type ServerProcess, startServerProcess } from '../../test/helpers/server-process.js';
import { dailyPart } from './daily.js';
import { dropPageCache } from './page-cache.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '0.25:10,1:10,1:16' },
    runs: { type: 'string', default: '5' },
    work: { type: 'string', default: '/tmp/mdq-bench-editions' },
    parts: { type: 'string', default: 'open,restart,start,first,reloads,daily,memory,verify,keep,many-reloads' },
    reloads: { type: 'string', default: '100' },
  },
});
const PARTS = new Set(values.parts!.split(','));
const SIZES = values.sizes!.split(',').map((s) => s.split(':').map(Number) as [number, number]);
const RUNS = Number(values.runs);
const WORK = values.work!;
const log = (line: string): void => console.error(`[editions] ${line}`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes: number): number => Math.round(bytes / 1e6);

/** A CPU-heavy process on each core (a busy loop), for figures taken beside other work; `stop` ends them by PID. */
function hogs(): { stop: () => void } {
  const children: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return { stop: () => children.forEach((c) => c.kill('SIGKILL')) };
}

/** Resident and proportional memory of `pid` (MB): RSS, its anonymous part, Pss. */
function memory(pid: number): { rss: number; anon: number; pss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (re: RegExp, text: string): number => Number(re.exec(text)![1]) / 1024;
  return {
    rss: Math.round(kb(/VmRSS:\s+(\d+)/, status)),
    anon: Math.round(kb(/RssAnon:\s+(\d+)/, status)),
    pss: Math.round(kb(/^Pss:\s+(\d+)/m, readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))),
  };
}

const du = (dir: string): number => Number(execFileSync('du', ['-sm', dir], { encoding: 'utf8' }).split('\t')[0]);

function get(port: number, path: string, key?: string, agent?: http.Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent: agent ?? false, headers: key === undefined ? {} : { 'x-api-key': key } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
  });
}

/** The demo at `scale` with `years` of history, generated once into the work folder, and a state folder holding it stored. */
async function demoAt(
  scale: number,
  years = 10,
): Promise<{ folder: string; state: string; storeSeconds: number | null }> {
  const folder = join(WORK, `demo-${scale}-${years}y`);
  const state = join(WORK, `state-${scale}-${years}y`);
  if (!existsSync(join(folder, 'manifest.json'))) {
    log(`generating the demo at scale ${scale}, ${years} years`);
    execFileSync(
      process.execPath,
      [join(DIST, 'loaders/demo/cli.js'), '--out', folder, '--scale', String(scale), '--years', String(years)],
      { stdio: 'ignore' },
    );
  }
  let storeSeconds: number | null = null;
  if (!existsSync(join(state, 'snapshots/current.json'))) {
    log(`storing it (scale ${scale})`);
    const t = performance.now();
    execFileSync(process.execPath, [join(DIST, 'loaders/cli/load.js'), folder, '--state', state], { stdio: 'ignore' });
    storeSeconds = (performance.now() - t) / 1000;
  }
  return { folder, state, storeSeconds };
}

/** Open time (s) and RSS (MB) of the stored edition in a fresh process, median of RUNS. */
function openFigures(state: string): { seconds: number; rssMb: number } {
  const runs = Array.from(
    { length: RUNS },
    () =>
      JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', join(DIST, 'bench/probe-open.js'), state], { encoding: 'utf8' }),
      ) as { openSeconds: number; rssBytes: number; rawBytes: number },
  );
  return { seconds: median(runs.map((r) => r.openSeconds)), rssMb: mb(median(runs.map((r) => r.rssBytes))) };
}

/** Seconds from running `command` to the first /readyz 200, median of RUNS (each server stopped before the next). */
async function restart(state: string, command: 'npm' | 'node'): Promise<number[]> {
  const port = 18300;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const args =
      command === 'npm'
        ? ['start', '--', '--state', state, '--port', String(port)]
        : [join(DIST, 'main.js'), '--state', state, '--port', String(port)];
    const t = performance.now();
    const child = spawn(command === 'npm' ? 'npm' : process.execPath, args, {
      cwd: ROOT,
      stdio: 'ignore',
      detached: true,
    });
    let exited: number | null = null;
    child.once('exit', (code) => (exited = code ?? -1));
    while ((await get(port, '/readyz')) !== 200) {
      if (exited !== null || performance.now() - t > 60_000)
        throw new Error(
          `${command} start on ${state}: ${exited !== null ? `exited with ${exited}` : 'not ready after 60 s'}`,
        );
      await new Promise((r) => setTimeout(r, 5));
    }
    times.push((performance.now() - t) / 1000);
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
    // Until every process of the group (npm, its shell, the server draining after them) has ended.
    for (;;) {
      try {
        process.kill(-child.pid!, 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return times;
}

/** An internal key made in `state` with the keys command (a server started there before printed its keys then). */
function internalKey(state: string): string {
  return execFileSync(
    process.execPath,
    [join(DIST, 'loaders/cli/keys.js'), 'create', '--plan', 'internal', '--org', 'bench', '--state', state],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .at(-1)!;
}

/** 1,000 distinct K-line requests (symbols × windows; `batch` makes each batch's distinct from every other's), one after another on a keep-alive connection: seconds. */
async function distinctRequests(
  s: ServerProcess,
  symbols: string[],
  batch: number,
  key = s.keys.internal!,
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const t = performance.now();
  for (let i = 0; i < 1000; i++) {
    const symbol = symbols[(i * 7 + batch * 13) % symbols.length];
    const status = await get(
      s.port,
      `/api/v1/ashare/klines/${symbol}?limit=${100 + batch}&offset=${(i * 37) % 500}&adj=qfq`,
      key,
      agent,
    );
    if (status !== 200) throw new Error(`K-lines of ${symbol}: ${status}`);
  }
  agent.destroy();
  return (performance.now() - t) / 1000;
}

/** Servers this run started: ended however the run ends. */
const started: ServerProcess[] = [];
const startServer = async (...args: Parameters<typeof startServerProcess>): Promise<ServerProcess> => {
  const s = await startServerProcess(...args);
  started.push(s);
  return s;
};

async function main(): Promise<void> {
  await mkdir(WORK, { recursive: true });
  const result: Record<string, unknown> = {};

  // 1. Open time by size: it must not grow with the rows (the symbol index and small markets apart).
  if (PARTS.has('open')) await openPart(result);
  const full = await demoAt(1);
  const restartState = join(WORK, 'restart-state');
  if (!existsSync(restartState)) execFileSync('cp', ['-al', full.state, restartState]); // the same parts (hard links), its own keys
  const symbols = (await readFile(join(full.folder, 'ashare/symbols.csv'), 'utf8'))
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split(',')[0]);
  if (PARTS.has('restart')) await restartPart(result, restartState);
  if (PARTS.has('start')) await startPart(result, restartState);
  if (PARTS.has('first')) await firstRequestsPart(result, restartState, symbols);
  if (PARTS.has('reloads')) await reloadsPart(result, full, symbols);
  if (PARTS.has('daily')) await dailyPart(result, { work: WORK, full, rounds: RUNS, startServer, hogs, log });
  if (PARTS.has('memory')) await memoryPart(result, full, restartState, symbols);
  if (PARTS.has('verify')) await verifyPart(result, full);
  if (PARTS.has('keep')) await keepPart(result, full);
  if (PARTS.has('many-reloads')) await manyReloadsPart(result, full);
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(join(ROOT, 'bench/results/editions.json'), JSON.stringify(result, null, 2));
}

/** 1. Open time and RSS by data size. */
async function openPart(result: Record<string, unknown>): Promise<void> {
  const opens: {
    scale: number;
    years: number;
    rows: number;
    storeSeconds: number | null;
    openSeconds: number;
    openRssMb: number;
  }[] = [];
  for (const [scale, years] of SIZES) {
    const demo = await demoAt(scale, years);
    const meta = JSON.parse(await readFile(join(demo.state, 'snapshots/current.json'), 'utf8')) as { version: string };
    const edition = JSON.parse(await readFile(join(demo.state, 'snapshots', meta.version, 'edition.json'), 'utf8')) as {
      rows: number;
    };
    const o = openFigures(demo.state);
    opens.push({
      scale,
      years,
      rows: edition.rows,
      storeSeconds: demo.storeSeconds,
      openSeconds: o.seconds,
      openRssMb: o.rssMb,
    });
    log(`scale ${scale}, ${years} y: ${edition.rows} rows, open ${o.seconds.toFixed(3)} s`);
  }
  result.open = opens;
  console.log('\nOpen a stored edition in a fresh process (median of', RUNS, 'runs)');
  console.log(
    '| demo (symbol scale × years) | K-line rows | store (s, first time) | open (s) | RSS after open (MB) |\n|---|---|---|---|---|',
  );
  for (const o of opens)
    console.log(
      `| ${o.scale} × ${o.years} | ${o.rows.toLocaleString('en')} | ${o.storeSeconds === null ? 'stored before' : o.storeSeconds.toFixed(1)} | ${o.openSeconds.toFixed(3)} | ${o.openRssMb} |`,
    );
}

/** 2. Restart of the full demo to /readyz, quiet and beside busy cores. */
async function restartPart(result: Record<string, unknown>, restartState: string): Promise<void> {
  await restart(restartState, 'node'); // first start: keys made, password hashed
  const quiet = { npm: await restart(restartState, 'npm'), node: await restart(restartState, 'node') };
  const busy = hogs();
  const loaded = { npm: await restart(restartState, 'npm'), node: await restart(restartState, 'node') };
  busy.stop();
  result.restart = { quiet, busy: loaded };
  console.log(
    '\nRestart of the full demo: the command run until /readyz answers 200 (s; median of',
    RUNS,
    ', all runs)',
  );
  console.log('| command | quiet | every core busy with another process |\n|---|---|---|');
  for (const c of ['npm', 'node'] as const)
    console.log(
      `| ${c === 'npm' ? 'npm start' : 'node dist/main.js'} | ${median(quiet[c]).toFixed(3)} (${quiet[c].map((x) => x.toFixed(2)).join(', ')}) | ${median(loaded[c]).toFixed(3)} (${loaded[c].map((x) => x.toFixed(2)).join(', ')}) |`,
    );
}

/** A port no process listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Where one `npm start` spent its time until /readyz answered 200 (ms): the Serving line's steps, timed from the command's run. */
interface StartSplit {
  total: number;
  /** npm: from running `npm start` to the start of the server's process (npm's launch, its shell). */
  npm: number;
  /** Node's own start, scripts/run.js (the build check) and the bundle's load, to the settings checked. */
  node: number;
  modules: number;
  data: number;
  listen: number;
  /** From listening to the first /readyz 200 seen (polled every 5 ms). */
  answer: number;
}

/** One `npm start` on `state`, as the README runs it: the time to the first /readyz 200 and its split; the server stopped after. */
async function npmStart(state: string): Promise<StartSplit> {
  const port = await freePort();
  const t = performance.timeOrigin + performance.now();
  const child = spawn('npm', ['start', '--', '--state', state, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  while ((await get(port, '/readyz')) !== 200) {
    if (exited !== null || performance.timeOrigin + performance.now() - t > 60_000)
      throw new Error(`npm start on ${state}: ${exited !== null ? `exited with ${exited}` : 'not ready after 60 s'}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const total = performance.timeOrigin + performance.now() - t;
  const serving = async (): Promise<string> => {
    for (;;) {
      const line = out.split('\n').find((l) => l.includes('"msg":"Serving '));
      if (line !== undefined) return line;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const line = JSON.parse(await serving()) as {
    process_started: string;
    start_s: { settings: number; modules: number; data: number; listening: number };
  };
  process.kill(-child.pid!, 'SIGTERM');
  for (;;) {
    try {
      process.kill(-child.pid!, 0); // until npm, its shell and the server (draining) have all ended
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const npm = Date.parse(line.process_started) - t;
  const s = line.start_s;
  return {
    total,
    npm,
    node: s.settings * 1000,
    modules: (s.modules - s.settings) * 1000,
    data: (s.data - s.modules) * 1000,
    listen: (s.listening - s.data) * 1000,
    answer: total - npm - s.listening * 1000,
  };
}

/** Milliseconds from running `node args` to its exit for each of `commands`, taken in turns, medians of 3 × RUNS (the differences sought are a few ms). */
function nodeRuns(commands: string[][]): number[] {
  const times: number[][] = commands.map(() => []);
  for (let i = 0; i < 3 * RUNS; i++)
    commands.forEach((args, c) => {
      const t = performance.now();
      execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
      times[c].push(performance.now() - t);
    });
  return times.map(median);
}

/** Busy and total CPU time of the machine so far (/proc/stat's first line, in clock ticks). */
function cpuTicks(): { idle: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { idle: ticks[3] + ticks[4], total: ticks.reduce((a, b) => a + b, 0) };
}

/** Waits until every core has been at least 90 % idle over a second (other work on a shared machine), for up to 2 minutes: whether it was. */
async function untilIdle(): Promise<boolean> {
  for (const until = Date.now() + 120_000; Date.now() < until; ) {
    const a = cpuTicks();
    await new Promise((r) => setTimeout(r, 1000));
    const b = cpuTicks();
    if ((b.idle - a.idle) / (b.total - a.total) >= 0.9) return true;
  }
  return false;
}

/** 2b. `npm start` of the full demo (stored) to /readyz, median of RUNS, each begun on idle cores, and where the time goes. */
async function startPart(result: Record<string, unknown>, restartState: string): Promise<void> {
  await npmStart(restartState); // not counted: a build if one is due (as after an edit), the files read once
  const runs: StartSplit[] = [];
  let idle = 0;
  for (let i = 0; i < RUNS; i++) {
    if (await untilIdle()) idle++;
    runs.push(await npmStart(restartState));
  }
  // The build check alone: the bundle's --help through scripts/run.js (checks, then runs it) and without.
  const bundle = join(DIST, 'main.bundle.js');
  const [runJs, alone, node] = nodeRuns([
    [join(ROOT, 'scripts/run.js'), bundle, '--help'],
    [bundle, '--help'],
    ['-e', '0'],
  ]);
  const check = { runJs, bundle: alone, node };
  result.start = { runs, check, begunOnIdleCores: idle };
  const m = (k: keyof StartSplit): string => median(runs.map((r) => r[k])).toFixed(0);
  console.log(
    `\n\`npm start\` of the full demo (stored) until /readyz answers 200: ${(median(runs.map((r) => r.total)) / 1000).toFixed(3)} s, median of ${RUNS} (${runs.map((r) => (r.total / 1000).toFixed(2)).join(', ')}; ${idle} of ${RUNS} begun on idle cores); where it goes (ms, medians)`,
  );
  console.log(
    "| npm's launch | Node, build check, bundle load | modules | open the stored edition | listen | first /readyz 200 |\n|---|---|---|---|---|---|",
  );
  console.log(`| ${m('npm')} | ${m('node')} | ${m('modules')} | ${m('data')} | ${m('listen')} | ${m('answer')} |`);
  console.log(
    `the build check: \`node scripts/run.js dist/main.bundle.js --help\` ${check.runJs.toFixed(0)} ms against \`node dist/main.bundle.js --help\` ${check.bundle.toFixed(0)} ms; \`node -e 0\` ${check.node.toFixed(0)} ms (medians of ${3 * RUNS})`,
  );
}

/** 3. The first 1,000 distinct requests after a restart (pages touched for the first time) against the next 1,000. */
async function firstRequestsPart(
  result: Record<string, unknown>,
  restartState: string,
  symbols: string[],
): Promise<void> {
  const restartKey = internalKey(restartState);
  const firsts: number[] = [];
  const steadies: number[] = [];
  for (let r = 0; r < 3; r++) {
    dropPageCache(); // the page cache too, where allowed
    const s = await startServer({
      state: restartState,
      env: { THREADS: '1', RESPONSE_CACHE_MB: '0', KLINE_TEXT_CACHE_MB: '0' },
    });
    firsts.push(await distinctRequests(s, symbols, 2 * r, restartKey));
    steadies.push(await distinctRequests(s, symbols, 2 * r + 1, restartKey));
    await s.kill();
  }
  result.firstRequests = { firsts, steadies };
  console.log(
    '\n1,000 distinct K-line requests (qfq, 100+ rows, answer caches off) right after a start against the next 1,000 (s; 3 starts)',
  );
  console.log(
    `first: ${firsts.map((x) => x.toFixed(2)).join(', ')}; next: ${steadies.map((x) => x.toFixed(2)).join(', ')}; ratio (median) ${(median(firsts) / median(steadies)).toFixed(2)}`,
  );
}

/** The full demo with one value of etfs/klines.csv changed (made once under the work folder): a reload onto it stores one small market. */
async function folderB(full: string): Promise<string> {
  const b = join(WORK, 'demo-1-b');
  if (!existsSync(join(b, 'manifest.json'))) {
    await cp(full, b, { recursive: true });
    const path = join(b, 'etfs/klines.csv');
    const lines = (await readFile(path, 'utf8')).split('\n');
    const cells = lines[1].split(',');
    cells[6] = String(Number(cells[6]) + 1);
    lines[1] = cells.join(',');
    await writeFile(path, lines.join('\n'));
  }
  return b;
}

/** 4 and 5. A one-file reload (etfs/klines.csv, one value), then ten reloads alternating two folders: time, memory, disk. */
async function reloadsPart(
  result: Record<string, unknown>,
  full: { folder: string; state: string },
  symbols: string[],
): Promise<void> {
  // A one-file reload (etfs/klines.csv, one value), then ten reloads alternating two folders: time, memory, disk.
  const b = await folderB(full.folder);
  const reloads: Record<string, unknown>[] = [];
  for (const beside of ['quiet', 'busy'] as const) {
    const state = join(WORK, `reload-state-${beside}`);
    await rm(state, { recursive: true, force: true });
    execFileSync('cp', ['-al', full.state, state]);
    const link = join(WORK, `reload-link-${beside}`);
    await repoint(link, full.folder);
    const s = await startServer({ state, snapshot: link, env: { THREADS: '2' }, timeoutMs: 120_000 });
    await distinctRequests(s, symbols, 100); // requests touch the data first, as a serving server's have
    const before = memory(s.pid);
    const rows: {
      reload: number;
      seconds: number;
      what: string;
      rss: number;
      anon: number;
      pss: number;
      varMb: number;
    }[] = [];
    const hog = beside === 'busy' ? hogs() : null;
    for (let i = 1; i <= (beside === 'quiet' ? 10 : 1); i++) {
      await repoint(link, i % 2 === 1 ? b : full.folder);
      const from = s.log.length;
      const t = performance.now();
      s.signal('SIGHUP');
      const line = await s.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 300_000, from);
      const seconds = (performance.now() - t) / 1000;
      await new Promise((r) => setTimeout(r, 1000)); // the edition before released
      const m = memory(s.pid);
      rows.push({
        reload: i,
        seconds,
        what: /K-line rows, (.*?), in [\d.]+ s/.exec(line)?.[1] ?? line.slice(0, 60),
        ...m,
        varMb: du(state),
      });
    }
    hog?.stop();
    await s.kill();
    reloads.push({ beside, before: { ...before, varMb: du(full.state) }, rows });
    console.log(
      `\nReloads on the full demo (${beside === 'quiet' ? 'quiet' : 'every core busy with another process'}): folders alternating A and B (B: one value of etfs/klines.csv changed), THREADS=2`,
    );
    console.log(
      `before the first: RSS ${before.rss} MB (anonymous ${before.anon}), Pss ${before.pss} MB, state folder ${du(full.state)} MB`,
    );
    console.log(
      '| reload | seconds | what | RSS (MB) | anonymous | Pss | state folder (MB) |\n|---|---|---|---|---|---|---|',
    );
    for (const r of rows)
      console.log(
        `| ${r.reload} | ${r.seconds.toFixed(2)} | ${r.what} | ${r.rss} | ${r.anon} | ${r.pss} | ${r.varMb} |`,
      );
  }
  result.reloads = reloads;
}

/** 6. Memory with one and two serving threads, and two instances on one host (state folders sharing the parts' files). */
async function memoryPart(
  result: Record<string, unknown>,
  full: { state: string },
  restartState: string,
  symbols: string[],
): Promise<void> {
  const restartKey = internalKey(restartState);
  const shared: Record<string, unknown> = {};
  for (const threads of ['1', '2']) {
    const s = await startServer({ state: restartState, env: { THREADS: threads } });
    await distinctRequests(s, symbols, 200 + Number(threads), restartKey);
    shared[`threads${threads}`] = memory(s.pid);
    await s.kill();
  }
  const second = join(WORK, 'instance-2-state');
  if (!existsSync(second)) execFileSync('cp', ['-al', full.state, second]);
  const one = await startServer({ state: restartState, env: { THREADS: '1' } });
  const two = await startServer({ state: second, env: { THREADS: '1' } });
  await distinctRequests(one, symbols, 300, restartKey);
  await distinctRequests(two, symbols, 301);
  shared.twoInstances = [memory(one.pid), memory(two.pid)];
  await one.kill();
  await two.kill();
  result.memory = shared;
  console.log("\nMemory after 1,000 distinct K-line requests (MB): the data is the files' pages, counted once");
  console.log('| server | RSS | anonymous | Pss |\n|---|---|---|---|');
  for (const [name, m] of Object.entries(shared)) {
    for (const [i, x] of (Array.isArray(m) ? m : [m]).entries())
      console.log(`| ${name}${Array.isArray(m) ? ` #${i + 1}` : ''} | ${x.rss} | ${x.anon} | ${x.pss} |`);
  }
}

/** 7. Checking the full demo's parts: their structure (what every start does before mapping), their content (the background pass). */
async function verifyPart(result: Record<string, unknown>, full: { state: string }): Promise<void> {
  const current = JSON.parse(await readFile(join(full.state, 'snapshots/current.json'), 'utf8')) as { version: string };
  const edition = JSON.parse(
    await readFile(join(full.state, 'snapshots', current.version, 'edition.json'), 'utf8'),
  ) as {
    markets: { market: string; part: string }[];
  };
  const dirs = edition.markets.map((m) => partDir(full.state, m.part));
  const structure: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    for (const dir of dirs) if (partFileProblem(dir) !== null) throw new Error(`${dir}: damaged`);
    structure.push(performance.now() - t);
  }
  const content: { cache: string; wallMs: number; verdicts: PartVerdict[] }[] = [];
  for (const cache of ['cold (page cache dropped)', 'warm'] as const) {
    if (cache !== 'warm') dropPageCache();
    const verdicts: PartVerdict[] = [];
    const t = performance.now();
    const damaged = await verifyInChild(dirs, (v) => verdicts.push(v));
    if (damaged.length > 0) throw new Error(damaged.map((d) => d.message).join('; '));
    content.push({ cache, wallMs: performance.now() - t, verdicts });
  }
  result.verify = { structureMs: structure, content };
  console.log(`\nChecking the full demo's ${dirs.length} parts`);
  console.log(
    `structure, at every start before mapping (two pages a part): ${median(structure).toFixed(2)} ms (median of ${RUNS}: ${structure.map((x) => x.toFixed(2)).join(', ')})`,
  );
  console.log(
    '| content (sha256 of every pack, in a child process after start) | wall (ms) | bytes | per part (ms) |\n|---|---|---|---|',
  );
  for (const c of content)
    console.log(
      `| ${c.cache} | ${c.wallMs.toFixed(0)} | ${mb(c.verdicts.reduce((a, v) => a + v.bytes, 0))} MB | ${c.verdicts.map((v) => `${v.dir.split('/').at(-1)!.split('-')[0]} ${v.ms.toFixed(0)}`).join(', ')} |`,
    );
}

/** 8. 40 reloads, each changing one value of etfs/klines.csv (a new etfs part each time), with KEEP_EDITIONS 1, 2, 3: the state folder after them. */
async function keepPart(result: Record<string, unknown>, full: { folder: string; state: string }): Promise<void> {
  const folder = join(WORK, 'demo-1-keep');
  if (!existsSync(join(folder, 'manifest.json'))) execFileSync('cp', ['-al', full.folder, folder]);
  const etfs = join(folder, 'etfs/klines.csv');
  const original = await readFile(join(full.folder, 'etfs/klines.csv'), 'utf8');
  const rows: { keep: number; reloads: number; editions: number; parts: number; varMb: number; partsMb: number }[] = [];
  for (const keep of [1, 2, 3]) {
    const state = join(WORK, `keep-state-${keep}`);
    await rm(state, { recursive: true, force: true });
    execFileSync('cp', ['-al', full.state, state]);
    await rm(etfs, { force: true }); // a file of its own (not a link to the demo's)
    await writeFile(etfs, original);
    const s = await startServer({ state, snapshot: folder, env: { KEEP_EDITIONS: String(keep) }, timeoutMs: 300_000 });
    for (let i = 1; i <= 40; i++) {
      const lines = original.split('\n');
      const cells = lines[1].split(',');
      cells[6] = String(Number(cells[6]) + i);
      lines[1] = cells.join(',');
      await writeFile(etfs, lines.join('\n'));
      const from = s.log.length;
      s.signal('SIGHUP');
      const line = await s.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 300_000, from);
      if (!line.includes('now serving')) throw new Error(`reload ${i}: ${line}`);
    }
    await new Promise((r) => setTimeout(r, 2000)); // the edition before the last released and pruned
    const names = readdirSync(join(state, 'snapshots'));
    const parts = readdirSync(join(state, 'snapshots/parts'));
    rows.push({
      keep,
      reloads: 40,
      editions: names.filter((n) => n !== 'parts' && n !== 'current.json').length,
      parts: parts.length,
      varMb: du(state),
      partsMb: du(join(state, 'snapshots/parts')),
    });
    await s.kill();
  }
  await writeFile(etfs, original);
  result.keep = rows;
  console.log('\n40 reloads, each changing one value of etfs/klines.csv (the full demo): the state folder after them');
  console.log('| KEEP_EDITIONS | editions | parts | state folder (MB) | parts (MB) |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.keep} | ${r.editions} | ${r.parts} | ${r.varMb} | ${r.partsMb} |`);
}

/**
 * 9. Anonymous memory over many reloads: the server (THREADS=2) on the full demo, then `--reloads`
 * SIGHUPs alternating two folders that differ in one small market (etfs), each edition stored by
 * the first two and switched to by fingerprint after. RssAnon (/proc/<pid>/status) is read 2 s
 * after each reload (its edition before released, collected, the freed memory returned). No
 * requests between: the answers cached on an edition are released with it, and their coming and
 * going would hide what the reloads themselves leave behind (reload 1 after 1,000 requests reads
 * above reload 100). Target: after the last ≤ after the first + 10 %.
 */
async function manyReloadsPart(
  result: Record<string, unknown>,
  full: { folder: string; state: string },
): Promise<void> {
  const reloads = Number(values.reloads);
  const b = await folderB(full.folder);
  const state = join(WORK, 'many-reloads-state');
  await rm(state, { recursive: true, force: true });
  execFileSync('cp', ['-al', full.state, state]);
  const link = join(WORK, 'many-reloads-link');
  await repoint(link, full.folder);
  const s = await startServer({ state, snapshot: link, env: { THREADS: '2' }, timeoutMs: 120_000 });
  const start = memory(s.pid);
  const rows: { reload: number; seconds: number; anon: number; rss: number }[] = [];
  for (let i = 1; i <= reloads; i++) {
    await repoint(link, i % 2 === 1 ? b : full.folder);
    const from = s.log.length;
    const t = performance.now();
    s.signal('SIGHUP');
    const line = await s.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 300_000, from);
    if (!line.includes('now serving')) throw new Error(`reload ${i}: ${line}`);
    const seconds = (performance.now() - t) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const m = memory(s.pid);
    rows.push({ reload: i, seconds, anon: m.anon, rss: m.rss });
    if (i % 10 === 0) log(`many reloads: ${i}/${reloads}, RssAnon ${m.anon} MB`);
  }
  await s.kill();
  const first = rows[0].anon;
  const last = rows.at(-1)!.anon;
  const shown = [1, 10, 50, 100, reloads].filter((n, i, all) => n <= reloads && all.indexOf(n) === i);
  result.manyReloads = {
    start,
    rows,
    firstMb: first,
    lastMb: last,
    growth: last / first - 1,
    met: last <= first * 1.1,
  };
  console.log(
    `\n${reloads} reloads on the full demo alternating A and B (B: one value of etfs/klines.csv changed), THREADS=2: RssAnon 2 s after each`,
  );
  console.log(`before the first: ${start.anon} MB`);
  console.log('| after reload | RssAnon (MB) | against reload 1 | RSS (MB) | reload (s) |\n|---|---|---|---|---|');
  for (const n of shown) {
    const r = rows[n - 1];
    console.log(
      `| ${n} | ${r.anon} | ${n === 1 ? '' : `${r.anon >= first ? '+' : ''}${(((r.anon - first) / first) * 100).toFixed(1)} %`} | ${r.rss} | ${r.seconds.toFixed(2)} |`,
    );
  }
  console.log(
    `target: after reload ${reloads} ≤ after reload 1 + 10 % (${(first * 1.1).toFixed(0)} MB): ${last <= first * 1.1 ? 'met' : 'NOT met'}`,
  );
}

try {
  await main();
} finally {
  for (const s of started) await s.kill();
}
