// The threads part of `npm run bench`: the server at THREADS=1 and THREADS=2 on one state folder,
// K-lines 100 and the screen over many distinct requests each; CPU per request from /proc (on 2
// cores wrk takes one, so req/s alone would hide what a second thread costs or buys), req/s as a
// ratio within the run, and resident memory (the Dataset is shared: counted once).

import { get } from 'node:http';
import { screenQueryString } from '../cases/inputs.js';
import { cpuSeconds, vmRssBytes } from './cpu-time.js';
import { choosePinning } from './pinning.js';
import { internalKey, startOurServer } from './servers.js';
import { runWrk } from './wrk.js';

export interface ThreadsOptions {
  seconds: number;
  rounds: number;
  connections: number;
  snapshotDir: string;
  stateDir: string;
  log: (line: string) => void;
}

export interface ThreadsRun {
  threads: number;
  case: string;
  rps: number;
  p99: number;
  /** Server CPU (every thread) per request, µs. */
  cpuUs: number | null;
  /** Share of the machine's cores the server kept busy (2.0 = both). */
  cores: number | null;
}

export interface ThreadsResult {
  pinning: string;
  runs: ThreadsRun[];
  /** Resident memory after the runs (bytes), by THREADS. */
  rss: { threads: number; bytes: number | null }[];
}

/** The JSON body of a GET on 127.0.0.1. */
function getJson(port: number, path: string, key: string): Promise<any> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { 'x-api-key': key } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(JSON.parse(text))
          : reject(new Error(`${path}: ${res.statusCode} ${text.slice(0, 200)}`)),
      );
    }).on('error', reject);
  });
}

/** Many distinct requests per case: K-lines 100 of 500 ashare symbols; the screen at 100 offsets. */
async function casePaths(port: number, key: string): Promise<Record<string, string[]>> {
  const symbols: string[] = [];
  for (let offset = 0; symbols.length < 500; offset += 100) {
    const page = await getJson(port, `/api/v1/ashare/symbols?limit=100&offset=${offset}`, key);
    for (const row of page.data as { symbol: string }[]) symbols.push(row.symbol);
    if (page.data.length < 100) break;
  }
  const screen = screenQueryString();
  return {
    'klines 100': symbols.map((s) => `/api/v1/ashare/klines/${s}?limit=100`),
    screen: Array.from({ length: 100 }, (_, i) => `/api/v1/ashare/screen?${screen}&offset=${i}`),
  };
}

export async function runThreads(o: ThreadsOptions): Promise<ThreadsResult> {
  const pin = choosePinning();
  const key = await internalKey(o.stateDir, o.log);
  const runs: ThreadsRun[] = [];
  const rss: ThreadsResult['rss'] = [];
  for (const threads of [1, 2]) {
    // The server is not pinned: its threads may use every core, wrk keeps its own beside them.
    const server = await startOurServer({
      stateDir: o.stateDir,
      snapshotDir: o.snapshotDir,
      core: null,
      env: { THREADS: String(threads) },
      log: o.log,
    });
    try {
      const paths = await casePaths(server.port, key);
      for (const [name, list] of Object.entries(paths)) {
        const url = `http://127.0.0.1:${server.port}${list[0]}`;
        await runWrk({
          url,
          connections: o.connections,
          seconds: 2,
          core: pin.loadCore,
          headers: { 'x-api-key': key },
          paths: list,
        }); // warm-up: every answer cached on every thread
        let best: ThreadsRun | null = null;
        for (let round = 0; round < o.rounds; round++) {
          const c0 = cpuSeconds(server.child.pid);
          const t0 = performance.now();
          const w = await runWrk({
            url,
            connections: o.connections,
            seconds: o.seconds,
            core: pin.loadCore,
            headers: { 'x-api-key': key },
            paths: list,
          });
          const c1 = cpuSeconds(server.child.pid);
          const wall = (performance.now() - t0) / 1000;
          if (w.non2xx > 0 || w.errors > 0)
            throw new Error(`THREADS=${threads} ${name}: ${w.non2xx} non-2xx answers, ${w.errors} socket errors`);
          const run: ThreadsRun = {
            threads,
            case: name,
            rps: w.rps,
            p99: w.p99,
            cpuUs: c0 === null || c1 === null ? null : ((c1 - c0) * 1e6) / w.requests,
            cores: c0 === null || c1 === null ? null : (c1 - c0) / wall,
          };
          o.log(
            `THREADS=${threads} ${name} round ${round + 1}: ${Math.round(run.rps)} req/s, ${run.cpuUs?.toFixed(1)} µs CPU/request`,
          );
          if (best === null || run.rps > best.rps) best = run;
        }
        runs.push(best!);
      }
      rss.push({ threads, bytes: vmRssBytes(server.child.pid) });
    } finally {
      await server.child.stop();
    }
  }
  return {
    pinning: `wrk ${pin.loadCore === null ? 'not pinned' : `pinned to core ${pin.loadCore}`}, the server on every core`,
    runs,
    rss,
  };
}

export function formatThreads(r: ThreadsResult): string {
  const one = (c: string): ThreadsRun | undefined => r.runs.find((x) => x.case === c && x.threads === 1);
  const rows = r.runs.map((x) => {
    const base = one(x.case)!;
    return `| ${x.case} | ${x.threads} | ${Math.round(x.rps).toLocaleString('en-US')} | ${(x.rps / base.rps).toFixed(2)} | ${x.p99.toFixed(2)} | ${x.cpuUs?.toFixed(1) ?? '–'} | ${x.cores?.toFixed(2) ?? '–'} |`;
  });
  const mb = (b: number | null): string => (b === null ? '–' : `${(b / 1024 / 1024).toFixed(0)} MB`);
  return [
    `Serving threads (${r.pinning}; 500 distinct K-line requests, 100 distinct screens, answers cached after a warm-up)`,
    '| case | THREADS | req/s | vs THREADS=1 | p99 ms | server CPU µs/request | cores busy |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    `Resident memory after the runs: ${r.rss.map((m) => `THREADS=${m.threads} ${mb(m.bytes)}`).join(', ')}`,
  ].join('\n');
}
