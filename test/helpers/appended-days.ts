// A snapshot served through a symlink to which new trading days are added, one edition at a time: a
// fixture copy with every day so far appended to ashare's K-lines (sh600001 and sz000002 trade each
// day), the link moved onto it, SIGHUP. What the clients' stream tests make editions with.

import assert from 'node:assert/strict';
import { appendFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureCopy } from './fixture-copy.js';
import { repoint, type ServerProcess } from './server-process.js';

/** The trading days after the fixture's last (2025-03-14, a Friday), in order. */
const DAYS = ['2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20', '2025-03-21'];
/** The symbols that trade on each new day, with their last close and adj_factor in the fixture. */
const TRADING: [symbol: string, close: number, factor: string][] = [
  ['sh600001', 6.3, '2.157024'],
  ['sz000002', 7.33, '1'],
];

/** The K-line rows of new day `n` (0-based): a small rise each day. */
function rowsOf(n: number): string[] {
  return TRADING.map(([symbol, close, factor]) => {
    const open = close + 0.05 * n;
    const last = open + 0.1;
    const volume = 50_000 + 1000 * n;
    return [
      symbol,
      DAYS[n],
      open.toFixed(2),
      (last + 0.1).toFixed(2),
      (open - 0.05).toFixed(2),
      last.toFixed(2),
      volume,
      (volume * last).toFixed(2),
      factor,
    ].join(',');
  });
}

export interface AppendedDays {
  /** The symlink to serve (`--snapshot`). */
  readonly link: string;
  /** The days added so far. */
  readonly added: readonly string[];
  /** Adds the next day (a new folder holding every day so far, the link moved onto it); its date. */
  addDay(): Promise<string>;
}

/** The fixture under `root`/day-0, served through `root`/current; each `addDay` a folder more. */
export async function appendedDays(root: string): Promise<AppendedDays> {
  const link = join(root, 'current');
  await symlink(await fixtureCopy(join(root, 'day-0')), link);
  const added: string[] = [];
  return {
    link,
    added,
    async addDay() {
      assert.ok(added.length < DAYS.length, 'days left to add');
      const n = added.length;
      const folder = await fixtureCopy(join(root, `day-${n + 1}`));
      const rows = Array.from({ length: n + 1 }, (_, i) => rowsOf(i)).flat();
      await appendFile(join(folder, 'ashare/klines.csv'), `${rows.join('\n')}\n`);
      await repoint(link, folder);
      added.push(DAYS[n]);
      return DAYS[n];
    },
  };
}

/** SIGHUP: the server reloads what its link points at; resolves with the version it now serves. */
export async function reload(server: ServerProcess): Promise<string> {
  const from = server.log.length;
  server.signal('SIGHUP');
  const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 15_000, from);
  const version = /now serving (\S+)/.exec(line)?.[1];
  assert.ok(version !== undefined, line);
  return version;
}

/**
 * A figure of the server's /metrics: the sum of the samples of `name` whose labels include `labels`
 * (each thread's figures are summed already), e.g. `metric(port, 'mdq_stream_subscriptions', { channel: 'screen' })`.
 */
export async function metric(port: number, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^(\w+)(?:\{(.*)\})? (\S+)$/gm)) {
    if (m[1] !== name) continue;
    const has = new Set([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => `${l[1]}=${l[2]}`));
    if (Object.entries(labels).every(([k, v]) => has.has(`${k}=${v}`))) sum += Number(m[3]);
  }
  return sum;
}

/** Resolves once `check` holds, asking every 50 ms; rejects after `timeoutMs` naming `what`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
