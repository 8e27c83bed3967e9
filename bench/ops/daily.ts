// The evening job on the full demo (the `daily` part of bench/ops/editions.ts): the next trading day
// appended to every market's klines.csv, then SIGHUP, until the new edition is served (quiet, and
// with another CPU-heavy process on every core); ten days at once; a day as day files; a day
// appended after the page cache is dropped (an evening after a day idle: the files and parts read
// from disk; as root only); one value edited in the middle of ashare/klines.csv (found, the market
// read whole); a full store of the demo (rows/s per core); and the K-line parser's bytes/s on one
// core against a plain Buffer.indexOf scan of the same file, the floor of any reader that finds
// line ends.

import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, open, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { readSnapshot } from '../../loaders/snapshot/read-snapshot.js';
import type { ServerProcess, startServerProcess } from '../../test/helpers/server-process.js';
import { appendDays } from './append-days.js';
import { canDropPageCache, dropPageCache } from './page-cache.js';

export interface DailyContext {
  work: string;
  /** The full demo's folder and its stored state (never changed here: copies are). */
  full: { folder: string; state: string };
  rounds: number;
  startServer: (...args: Parameters<typeof startServerProcess>) => Promise<ServerProcess>;
  hogs: () => { stop: () => void };
  log: (line: string) => void;
}

interface ReloadFigure {
  case: string;
  beside: 'quiet' | 'busy';
  rowsAdded: number;
  /** SIGHUP to the `now serving` line, as the bench sees it. */
  seconds: number;
  /** The server's own account: what it did and its stages. */
  what: string;
  stages: string;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Signals a reload and waits for its pass to end: the bench's time and the server's line. */
async function reload(s: ServerProcess): Promise<{ seconds: number; line: string }> {
  const from = s.log.length;
  const t = performance.now();
  s.signal('SIGHUP');
  const line = await s.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 600_000, from);
  const seconds = (performance.now() - t) / 1000;
  if (!/now serving/.test(line)) throw new Error(`the reload did not serve a new edition: ${line}`);
  return { seconds, line };
}

/** One value in the middle of `path` changed in place (same length): a volume's last digit. */
async function editInTheMiddle(path: string): Promise<void> {
  const size = (await stat(path)).size;
  const file = await open(path, 'r+');
  try {
    const buffer = Buffer.alloc(4096);
    await file.read(buffer, 0, buffer.length, Math.floor(size / 2));
    const start = buffer.indexOf(10) + 1; // the next whole line
    const end = buffer.indexOf(10, start);
    const cells = buffer.subarray(start, end).toString().split(',');
    const volume = cells[6];
    cells[6] = `${volume.slice(0, -1)}${volume.endsWith('1') ? '2' : '1'}`;
    await file.write(Buffer.from(cells.join(',')), 0, end - start, Math.floor(size / 2) + start);
  } finally {
    await file.close();
  }
}

export async function dailyPart(result: Record<string, unknown>, ctx: DailyContext): Promise<void> {
  const { work, full, log } = ctx;
  const figures: ReloadFigure[] = [];
  const folder = join(work, 'daily-folder');
  const state = join(work, 'daily-state');
  for (const beside of ['quiet', 'busy'] as const) {
    // A copy of the demo (appends must not reach it) and of its state (the parts hard-linked: never written in place).
    log(`daily (${beside}): copying the demo and its state`);
    await rm(folder, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
    await cp(full.folder, folder, { recursive: true });
    execFileSync('cp', ['-al', full.state, state]);
    const s = await ctx.startServer({ state, snapshot: folder, env: { THREADS: '2' }, timeoutMs: 600_000 });
    // The copy's paths differ from the stored folder's: the first pass records them (every file compared, nothing parsed).
    await reload(s).catch(() => {});
    const cases: { name: string; rounds: number; make: () => Promise<number> }[] = [
      { name: 'one day, every market, appended to klines.csv', rounds: ctx.rounds, make: () => appendDays(folder, 1) },
      ...(beside === 'quiet'
        ? [
            { name: 'ten days at once, every market, klines.csv', rounds: 1, make: () => appendDays(folder, 10) },
            {
              name: 'one day, every market, as day files',
              rounds: ctx.rounds,
              make: () => appendDays(folder, 1, true),
            },
            ...(canDropPageCache()
              ? [
                  {
                    name: 'one day, every market, appended to klines.csv, the page cache dropped first (an evening after a day idle)',
                    rounds: ctx.rounds,
                    make: async () => {
                      const rows = await appendDays(folder, 1);
                      dropPageCache();
                      return rows;
                    },
                  },
                ]
              : (log('daily: the page cache cannot be dropped here (not root): the cold evening is not measured'), [])),
            {
              name: 'one value edited in the middle of ashare/klines.csv',
              rounds: 1,
              make: async () => (await editInTheMiddle(join(folder, 'ashare/klines.csv')), 0),
            },
          ]
        : []),
    ];
    for (const c of cases)
      for (let round = 0; round < c.rounds; round++) {
        const rowsAdded = await c.make();
        const hog = beside === 'busy' ? ctx.hogs() : null;
        try {
          const { seconds, line } = await reload(s);
          const m = /K-line rows, (.*?), in [\d.]+ s \((.*)\)/.exec(line);
          figures.push({ case: c.name, beside, rowsAdded, seconds, what: m?.[1] ?? '', stages: m?.[2] ?? line });
          log(`daily (${beside}): ${c.name}: ${seconds.toFixed(2)} s (${m?.[2] ?? ''})`);
        } finally {
          hog?.stop();
        }
      }
    await s.kill();
  }

  // A full store of the folder (every day appended above included) on every core, in a fresh state folder.
  const fresh = join(work, 'daily-full-store');
  await rm(fresh, { recursive: true, force: true });
  const threads = availableParallelism();
  const store = await storeEdition(folder, fresh, { threads });
  await rm(fresh, { recursive: true, force: true });

  // The parser on one core: ashare/klines.csv alone, read whole, against a scan for its line ends.
  const alone = join(work, 'daily-ashare-alone');
  if (!existsSync(join(alone, 'ashare/klines.csv'))) {
    await mkdir(join(alone, 'ashare'), { recursive: true });
    for (const f of ['manifest.json', 'ashare/klines.csv', 'ashare/symbols.csv'])
      if (existsSync(join(full.folder, f))) await cp(join(full.folder, f), join(alone, f));
  }
  const bytes = (await stat(join(alone, 'ashare/klines.csv'))).size;
  let t = performance.now();
  const parsed = await readSnapshot(alone, { threads: 0 });
  const parseSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  let lines = 0;
  for await (const chunk of createReadStream(join(alone, 'ashare/klines.csv'), { highWaterMark: 1 << 20 })) {
    const b = chunk as Buffer;
    for (let at = b.indexOf(10); at >= 0; at = b.indexOf(10, at + 1)) lines++;
  }
  const scanSeconds = (performance.now() - t) / 1000;

  const parser = {
    file: 'ashare/klines.csv',
    mb: Math.round(bytes / 1e6),
    rows: parsed.rows,
    lines,
    parseMbPerS: Math.round(bytes / 1e6 / parseSeconds),
    scanMbPerS: Math.round(bytes / 1e6 / scanSeconds),
  };
  const fullStore = {
    rows: store.rows,
    seconds: store.seconds,
    threads,
    rowsPerSecondPerCore: Math.round(store.rows / store.seconds / threads),
  };
  result.daily = { reloads: figures, fullStore, parser };

  console.log(
    `\nDaily updates on the full demo (THREADS=2): SIGHUP to the new edition served (load average now ${loadavg()[0].toFixed(1)}: "quiet" means no process of this bench beside it, not an idle machine)`,
  );
  console.log('| case | beside | rows added | seconds (median) | runs | the server: what, stages (last run) |');
  console.log('|---|---|---|---|---|---|');
  const keys = [...new Set(figures.map((f) => `${f.case}\t${f.beside}`))];
  for (const key of keys) {
    const runs = figures.filter((f) => `${f.case}\t${f.beside}` === key);
    const last = runs.at(-1)!;
    console.log(
      `| ${last.case} | ${last.beside} | ${last.rowsAdded} | ${median(runs.map((r) => r.seconds)).toFixed(2)} | ${runs.map((r) => r.seconds.toFixed(2)).join(', ')} | ${last.what}; ${last.stages} |`,
    );
  }
  console.log(
    `\nFull store of the demo with those days (${store.rows} rows, ${threads} worker threads): ${store.seconds.toFixed(1)} s, ${fullStore.rowsPerSecondPerCore.toLocaleString('en')} rows/s per core`,
  );
  console.log(
    `Parser on one core, ${parser.file} (${parser.mb} MB, ${parser.rows} rows): ${parser.parseMbPerS} MB/s; a Buffer.indexOf scan for its ${lines} line ends: ${parser.scanMbPerS} MB/s`,
  );
}
