// The evening's update end to end: one trading day appended to every market of the full demo,
// SIGHUP, until the last of N subscribed sockets has its `edition` and its `bars` messages; the
// reload (SIGHUP → published) and the fan-out (published → last socket) reported apart.
//
// The real server (THREADS=2, its own state folder) serves a working copy of the full demo (its
// first store is not measured); a load child in its own process holds the sockets (every one on
// `editions`, a share also on `bars` "*" of the markets asked). Each round appends the next
// trading day to every market (before the signal, not timed), to each klines.csv or as a day file
// `<market>/klines/<date>.csv`, and checks what the sockets were sent: the `edition` names the new
// version, the one before and every market with the rows appended and the new day; each market's
// `bars` reached every bars socket and carries exactly the appended rows of that day.

import { constants } from 'node:fs';
import { cp } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type ServerProcess, startServerProcess } from '../../test/helpers/server-process.js';
import { DEMO_SNAPSHOT, ensureSnapshot } from '../http/servers.js';
import { appendDaysPerMarket, type MarketAppended } from './append-days.js';
import { Load } from './stream-load-parent.js';

/** How the day reaches the folder: appended to each market's klines.csv, or a new file in `<market>/klines/`. */
export const VARIANTS = ['klines.csv', 'day-files'] as const;
export type Variant = (typeof VARIANTS)[number];

export interface EndToEndOptions {
  /** The work folder: the demo's working copy and the server's state go under it. */
  work: string;
  sockets: number;
  /** The share of sockets also on `bars` "*" of each of `barsMarkets`. */
  barsShare: number;
  barsMarkets: string[];
  rounds: number;
  variants: Variant[];
  log: (line: string) => void;
}

/** One round: a day appended by one variant, then SIGHUP. Times are ms. */
export interface EndToEndRound {
  variant: Variant;
  round: number;
  rowsAppended: number;
  version: string;
  /** SIGHUP → the first serving thread's publish of the edition to its sockets. */
  reloadMs: number;
  /** The reload as the server logs it: its total and its stages (read, store, open, publish), seconds. */
  serverSeconds: number;
  stages: Record<string, number>;
  /** Each serving thread's publish after the first one's, and the time its `published` call took. */
  threadsAfterFirstMs: number[];
  publishCallMs: number[];
  /** From the first thread's publish: the first and the last socket's `edition`, the last `bars` message. */
  editionFirstMs: number;
  editionLastMs: number;
  barsLastMs: number;
  /** SIGHUP → the last message of every socket (`edition` and `bars`). */
  endToEndMs: number;
  /** The bytes of `bars` frames one bars socket was sent this edition (every market). */
  barsBytesPerSocket: number;
  loadAverage: number[];
}

export interface EndToEndFigure {
  sockets: number;
  barsSockets: number;
  barsMarkets: string[];
  threads: number;
  /** The first store of the working copy (not part of any round), s. */
  firstStoreSeconds: number;
  connectSeconds: number;
  rounds: EndToEndRound[];
}

const epochMs = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The demo folder copied (reflinked where the file system can): the appends must not touch snapshots/demo. */
async function workingCopy(folder: string, log: (line: string) => void): Promise<void> {
  await ensureSnapshot(DEMO_SNAPSHOT, log);
  const started = performance.now();
  await cp(DEMO_SNAPSHOT, folder, { recursive: true, mode: constants.COPYFILE_FICLONE });
  log(`end-to-end: copied the demo to ${folder} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The message of a JSON log line (raw text when it is not one). */
function messageOf(line: string): string {
  try {
    return String((JSON.parse(line) as { msg?: unknown }).msg);
  } catch {
    return line;
  }
}

/** `… in 0.52 s (read 0.10 s, store 0.31 s, open 0.05 s, publish 0.01 s)`: the total and each stage, s. */
function reloadTimes(msg: string): { seconds: number; stages: Record<string, number> } {
  const m = /in ([\d.]+) s \(([^()]*)\)$/.exec(msg);
  if (m === null) throw new Error(`no reload times in: ${msg}`);
  const stages: Record<string, number> = {};
  for (const part of m[2].split(', ')) {
    const [stage, seconds] = part.split(' ');
    stages[stage] = Number(seconds);
  }
  return { seconds: Number(m[1]), stages };
}

interface BarsSeen {
  messages: number;
  bytes: number;
  otherLength: number;
  rows: number;
  dates: string[];
}

const dateKey = (d: string): string => d.replaceAll('-', '');

/** What the sockets were sent against what was appended; a mismatch throws, naming it. */
function check(
  got: Record<string, unknown>,
  version: string,
  previous: string,
  appended: MarketAppended[],
  barsSockets: number,
  barsMarkets: string[],
): void {
  const fail = (what: string): never => {
    throw new Error(`end-to-end, edition ${version}: ${what}`);
  };
  const message = got.message as {
    data_version: string;
    previous: string;
    markets: { market: string; rows_added: number; last_date: string | null }[];
  };
  if (message.data_version !== version) fail(`the edition message names ${message.data_version}`);
  if (message.previous !== previous) fail(`the edition message's previous is ${message.previous}, not ${previous}`);
  const want = appended.map((a) => `${a.market} +${a.rows} to ${dateKey(a.dates.at(-1)!)}`).sort();
  const told = message.markets
    .map((m) => `${m.market} +${m.rows_added} to ${m.last_date === null ? null : dateKey(m.last_date)}`)
    .sort();
  if (want.join('; ') !== told.join('; '))
    fail(`the edition message says ${told.join('; ')}; appended ${want.join('; ')}`);
  if (barsSockets === 0) return;
  const bars = got.bars as Record<string, BarsSeen>;
  for (const a of appended) {
    if (!barsMarkets.includes(a.market)) continue;
    const b = bars[a.market];
    if (b === undefined) fail(`no bars message for ${a.market}`);
    if (b.messages !== barsSockets) fail(`${a.market}'s bars reached ${b.messages} of ${barsSockets} sockets`);
    if (b.otherLength !== 0) fail(`${a.market}'s bars differ in length on ${b.otherLength} sockets`);
    if (b.rows !== a.rows) fail(`${a.market}'s bars carry ${b.rows} rows; ${a.rows} appended`);
    if (b.dates.map(dateKey).join() !== a.dates.map(dateKey).join())
      fail(`${a.market}'s bars carry the dates ${b.dates.join()}; appended ${a.dates.join()}`);
  }
}

/** One round: the day appended, SIGHUP, every socket's messages, checked. */
async function round(
  server: ServerProcess,
  load: Load,
  o: EndToEndOptions,
  folder: string,
  variant: Variant,
  index: number,
  previous: string,
  barsSockets: number,
): Promise<EndToEndRound> {
  const appended = await appendDaysPerMarket(folder, 1, variant === 'day-files');
  await sleep(1000); // what the append left to do (page cache, the collector) settles before the signal
  const from = server.log.length;
  const loggedFrom = server.logged.length;
  load.send({ type: 'expect', bars: true });
  const reached = load.next('edition', 180_000);
  const sighupAt = epochMs();
  server.signal('SIGHUP');
  const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 180_000, from);
  const msg = messageOf(line);
  const version = /now serving (\S+)/.exec(msg)?.[1];
  if (version === undefined) throw new Error(`end-to-end: the reload did not serve a new edition: ${msg}`);
  const got = await reached;
  check(got, version, previous, appended, barsSockets, o.barsMarkets);
  const published = server.logged
    .slice(loggedFrom)
    .filter((l) => String(l.msg).startsWith('stream: edition published') && l.data_version === version)
    .sort((a, b) => (a.published_at as number) - (b.published_at as number));
  if (published.length === 0) throw new Error(`end-to-end: no thread logged publishing ${version}`);
  const t0 = published[0].published_at as number;
  const { seconds, stages } = reloadTimes(msg);
  const bars = got.bars as Record<string, BarsSeen>;
  const last = Math.max(got.last as number, got.barsLast as number);
  return {
    variant,
    round: index,
    rowsAppended: appended.reduce((n, a) => n + a.rows, 0),
    version,
    reloadMs: t0 - sighupAt,
    serverSeconds: seconds,
    stages,
    threadsAfterFirstMs: published.slice(1).map((l) => (l.published_at as number) - t0),
    publishCallMs: published.map((l) => l.ms as number),
    editionFirstMs: (got.first as number) - t0,
    editionLastMs: (got.last as number) - t0,
    barsLastMs: barsSockets === 0 ? 0 : (got.barsLast as number) - t0,
    endToEndMs: last - sighupAt,
    barsBytesPerSocket: Object.values(bars).reduce((n, b) => n + b.bytes, 0),
    loadAverage: loadavg(),
  };
}

/** Runs the rounds (each variant in turn, `rounds` times) and returns every round's figures. */
export async function endToEnd(o: EndToEndOptions): Promise<EndToEndFigure> {
  const folder = join(o.work, 'e2e-demo');
  await workingCopy(folder, o.log);
  o.log(
    'end-to-end: starting the server on the working copy (THREADS=2; the first store of the demo is not measured)…',
  );
  const started = performance.now();
  const server = await startServerProcess({
    snapshot: folder,
    state: join(o.work, 'e2e-state'),
    env: { THREADS: '2' },
    timeoutMs: 20 * 60_000,
  });
  let load: Load | null = null;
  try {
    const firstStoreSeconds = (performance.now() - started) / 1000;
    o.log(
      `end-to-end: serving ${server.version} after ${firstStoreSeconds.toFixed(1)} s; connecting ${o.sockets} sockets`,
    );
    const runs = o.rounds * o.variants.length;
    load = new Load([
      '--port',
      String(server.port),
      '--key',
      server.keys.internal!,
      '--sockets',
      String(o.sockets),
      '--bars-share',
      String(o.barsShare),
      '--bars-markets',
      o.barsMarkets.join(','),
      '--seconds',
      String(600 + runs * 240),
    ]);
    const ready = await load.next('ready', 300_000);
    await sleep(2000); // settled: idle sockets, nothing in flight
    const figure: EndToEndFigure = {
      sockets: o.sockets,
      barsSockets: Math.ceil(o.sockets * o.barsShare),
      barsMarkets: o.barsMarkets,
      threads: 2,
      firstStoreSeconds,
      connectSeconds: (ready.ms as number) / 1000,
      rounds: [],
    };
    let previous = server.version;
    for (let r = 1; r <= o.rounds; r++)
      for (const variant of o.variants) {
        const f = await round(server, load, o, folder, variant, r, previous, figure.barsSockets);
        previous = f.version;
        figure.rounds.push(f);
        o.log(
          `  end-to-end ${variant} round ${r}: ${f.rowsAppended} rows; SIGHUP → published ${f.reloadMs.toFixed(0)} ms (server: ${Object.entries(
            f.stages,
          )
            .map(([s, t]) => `${s} ${t.toFixed(2)} s`)
            .join(
              ', ',
            )}), published → last edition ${f.editionLastMs.toFixed(0)} ms, last bars ${f.barsLastMs.toFixed(0)} ms; SIGHUP → last socket ${f.endToEndMs.toFixed(0)} ms (load ${f.loadAverage.map((x) => x.toFixed(2)).join(' ')})`,
        );
      }
    return figure;
  } finally {
    await load?.exit();
    await server.kill();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const msText = (x: number): string => `${x.toFixed(0)} ms`;

/** The table: per variant its median, then every round. */
export function formatEndToEnd(f: EndToEndFigure): string[] {
  const stageNames = [...new Set(f.rounds.flatMap((r) => Object.keys(r.stages)))];
  type Cells = Pick<
    EndToEndRound,
    'reloadMs' | 'stages' | 'publishCallMs' | 'editionLastMs' | 'barsLastMs' | 'endToEndMs'
  >;
  const cells = (r: Cells): string =>
    [
      msText(r.reloadMs),
      `${stageNames.map((s) => (r.stages[s] ?? 0).toFixed(2)).join(' / ')} s`,
      `${r.publishCallMs.map((x) => x.toFixed(0)).join(' + ')} ms`,
      msText(r.editionLastMs),
      f.barsSockets === 0 ? '–' : msText(r.barsLastMs),
      `**${msText(r.endToEndMs)}**`,
    ].join(' | ');
  const lines = [
    `End to end on the full demo (THREADS=2; ${f.sockets.toLocaleString('en-US')} sockets on \`editions\`, ${f.barsSockets.toLocaleString('en-US')} of them also on \`bars\` "*" of ${f.barsMarkets.join(', ')}): one trading day appended to every market, SIGHUP → the last socket's message. Reload = SIGHUP → the first serving thread's publish; fan-out = that publish → the last socket's message; each thread's publish call = the hub's synchronous part (messages built and handed to uWS), in the order the threads ran it.`,
    `| variant | round | rows | reload | server's ${stageNames.join(' / ')} | each thread's publish call | fan-out: last \`edition\` | fan-out: last \`bars\` | end to end |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const variant of new Set(f.rounds.map((r) => r.variant))) {
    const rs = f.rounds.filter((r) => r.variant === variant);
    const med: Cells = {
      reloadMs: median(rs.map((r) => r.reloadMs)),
      stages: Object.fromEntries(stageNames.map((s) => [s, median(rs.map((r) => r.stages[s] ?? 0))])),
      publishCallMs: rs[0].publishCallMs.map((_, i) => median(rs.map((r) => r.publishCallMs[i] ?? 0))),
      editionLastMs: median(rs.map((r) => r.editionLastMs)),
      barsLastMs: median(rs.map((r) => r.barsLastMs)),
      endToEndMs: median(rs.map((r) => r.endToEndMs)),
    };
    lines.push(
      `| ${variant} | median of ${rs.length} | ${rs[0].rowsAppended.toLocaleString('en-US')} | ${cells(med)} |`,
    );
    for (const r of rs)
      lines.push(`| ${variant} | ${r.round} | ${r.rowsAppended.toLocaleString('en-US')} | ${cells(r)} |`);
  }
  const bytes = median(f.rounds.map((r) => r.barsBytesPerSocket));
  lines.push(
    `\`bars\` per bars socket and edition: ${(bytes / 2 ** 20).toFixed(2)} MiB (${((bytes * f.barsSockets) / 2 ** 20).toFixed(0)} MiB to all of them); first store of the working copy ${f.firstStoreSeconds.toFixed(1)} s (not measured); ${f.sockets.toLocaleString('en-US')} sockets connected in ${f.connectSeconds.toFixed(1)} s; load average (1 min) at the rounds ${f.rounds.map((r) => r.loadAverage[0].toFixed(2)).join(', ')}.`,
  );
  return lines;
}
