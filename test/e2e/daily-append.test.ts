// The operator's evening job against the real server process: rows appended and day files added,
// then SIGHUP. A duplicate keeps the edition served (the log says why); reloads signalled twenty
// times in two seconds while files change never serve a half-merged edition (every answer is the
// answer of a full store of some state the folder passed through, the one its X-Data-Version
// names); a server killed with SIGKILL in the middle of a merge serves an intact edition at its
// next start.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appendDays, weekdayAfter } from '../../bench/ops/append-days.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { httpRequest, startTestServer, type TestServer } from '../helpers/api-server.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const GEN_DEMO = new URL('../../loaders/demo/cli.js', import.meta.url).pathname;
const ASHARE_HEADER = 'symbol,date,open,high,low,close,volume,amount,adj_factor';
const HK_HEADER = 'date,symbol,close,open,low,high,amount,volume,adj_factor,currency';

let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  dir = await tempDir('mdq-daily-e2e-');
});
after(() => dir?.cleanup());

/**
 * The folder's j-th change (j from 1): odd changes append a day of sh600001 to ashare/klines.csv,
 * even ones add a day file of hk00700 to hkstock/klines/. Each lands whole (written aside, renamed),
 * as an operator's job that writes a file and then moves it into place.
 */
async function change(folder: string, j: number): Promise<void> {
  const n = Math.ceil(j / 2);
  const date = weekdayAfter('2025-03-14', n);
  const price = (6.3 + n / 100).toFixed(2);
  if (j % 2 === 1) {
    const path = join(folder, 'ashare/klines.csv');
    const grown = `${await readFile(path, 'utf8')}sh600001,${date},${price},${price},${price},${price},${1000 + n},${(1000 + n) * Number(price)},2.157024\n`;
    await writeFile(`${path}.tmp`, grown);
    await rename(`${path}.tmp`, path);
  } else {
    await mkdir(join(folder, 'hkstock/klines'), { recursive: true });
    const hk = (512.5 + n).toFixed(2);
    const file = join(folder, 'hkstock/klines', `${date.replaceAll('-', '')}.csv`);
    // Written aside (a file of klines/ not named *.csv is refused), then moved in.
    const aside = join(folder, 'hkstock', `.${date}.tmp`);
    await writeFile(
      aside,
      `${HK_HEADER}\n${date.replaceAll('-', '')},hk00700,${hk},${hk},${hk},${hk},1000,${Number(hk) * 1000},1.000000,HKD\n`,
    );
    await rename(aside, file);
  }
}

/** The processes of the stores under way in `state` (each names itself in a marker until it ends). */
async function storeMarkers(state: string): Promise<number[]> {
  const names = await readdir(join(state, 'snapshots')).catch(() => [] as string[]);
  return names.filter((n) => /^\.store-\d+\.json$/.test(n)).map((n) => Number(/\d+/.exec(n)![0]));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Reads `path` of the live server with `key`: status, version, body. */
async function ask(server: { port: number }, path: string, key: string) {
  const r = await httpRequest(server.port, path, { headers: { 'x-api-key': key } });
  return { status: r.status, version: String(r.headers['x-data-version']), body: r.text };
}

describe('a duplicate in the appended rows or across day files', () => {
  let server: ServerProcess;
  let folder: string;
  let key: string;
  before(async () => {
    folder = await fixtureCopy(join(dir.path, 'dup'));
    server = await startServerProcess({ snapshot: folder, state: join(dir.path, 'dup-state') });
    key = server.keys.internal!;
  });
  after(() => server?.kill());

  test('a stored row appended again: the reload is refused naming both lines, the edition before serves on', async () => {
    const path = join(folder, 'ashare/klines.csv');
    const text = await readFile(path, 'utf8');
    const lines = text.split('\n').length - 1;
    const first = text.split('\n')[1];
    const [symbol, date] = first.split(',');
    const readyBefore = await httpRequest(server.port, '/readyz');
    const answerBefore = await ask(server, `/api/v1/ashare/klines/${symbol}?limit=5`, key);
    await appendFile(path, `${first}\n`);
    const from = server.log.length;
    server.signal('SIGHUP');
    const line = await server.waitForLog(/reload: (snapshot rejected|now serving|failed)/, 20_000, from);
    assert.match(
      line,
      new RegExp(
        `reload: snapshot rejected: ashare/klines\\.csv:${lines + 1}: duplicate row for ${symbol} on ${date} \\(first at line 2\\); still serving ${server.version}`,
      ),
    );
    const readyAfter = await httpRequest(server.port, '/readyz');
    assert.equal(readyAfter.status, 200);
    assert.equal(readyAfter.text, readyBefore.text, '/readyz unchanged');
    assert.deepEqual(await ask(server, `/api/v1/ashare/klines/${symbol}?limit=5`, key), answerBefore);
    await writeFile(path, text); // the operator takes the line out again
  });

  test('the same day in two day files: refused naming both files and lines; the edition before serves on', async () => {
    await mkdir(join(folder, 'ashare/klines'), { recursive: true });
    const row = 'sh600001,2025-03-17,6.3,6.4,6.2,6.35,1000,6350,2.157024';
    await writeFile(join(folder, 'ashare/klines/20250317.csv'), `${ASHARE_HEADER}\n${row}\n`);
    await writeFile(
      join(folder, 'ashare/klines/late.csv'),
      `${ASHARE_HEADER}\nsh600001,2025-03-18,6.3,6.4,6.2,6.36,1000,6360,2.157024\n${row}\n`,
    );
    const from = server.log.length;
    server.signal('SIGHUP');
    const line = await server.waitForLog(/reload: (snapshot rejected|now serving|failed)/, 20_000, from);
    assert.match(
      line,
      /reload: snapshot rejected: ashare\/klines\/late\.csv:3: duplicate row for sh600001 on 2025-03-17 \(first at ashare\/klines\/20250317\.csv:2\); still serving /,
    );
    const latest = await ask(server, '/api/v1/ashare/klines/sh600001?limit=1', key);
    assert.equal(latest.version, server.version);
    assert.match(latest.body, /2025-03-14/, 'the day before the rejected files is still the last');
  });
});

test('SIGHUP twenty times in two seconds while files change: every answer is that of a full store of the folder its X-Data-Version names', async () => {
  const CHANGES = 10;
  const folder = await fixtureCopy(join(dir.path, 'storm'));
  // The reference: each state the folder passes through, stored whole on its own.
  const references = new Map<string, TestServer>();
  const stateOf = await fixtureCopy(join(dir.path, 'storm-ref'));
  for (let j = 0; j <= CHANGES; j++) {
    if (j > 0) await change(stateOf, j);
    const snapshot = join(dir.path, `storm-ref-${j}`);
    await cp(stateOf, snapshot, { recursive: true });
    const reference = await startTestServer({ snapshot, responseCache: null });
    references.set(reference.dataset.version, reference);
  }
  assert.equal(references.size, CHANGES + 1, 'each change makes another edition');
  const server = await startServerProcess({
    snapshot: folder,
    state: join(dir.path, 'storm-state'),
    env: { THREADS: '2', RESPONSE_CACHE_MB: '0', KLINE_TEXT_CACHE_MB: '0' },
  });
  try {
    const key = server.keys.internal!;
    const paths = [
      '/api/v1/markets',
      '/api/v1/ashare/klines/sh600001?limit=4',
      '/api/v1/hkstock/klines/hk00700?limit=4&fields=*',
      '/api/v1/ashare/detail/sh600001?fields=close,volume,ma5',
      '/api/v1/hkstock/screen?sort=volume&limit=5&fields=close,volume',
    ];
    let stop = false;
    const seen: { path: string; status: number; version: string; body: string }[] = [];
    const streams = Array.from({ length: 4 }, async (_, s) => {
      for (let i = s; !stop; i++) {
        const path = paths[i % paths.length];
        seen.push({ path, ...(await ask(server, path, key)) });
      }
    });
    const from = server.log.length;
    const signals = (async () => {
      for (let i = 0; i < 20; i++) {
        server.signal('SIGHUP');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    for (let j = 1; j <= CHANGES; j++) {
      await change(folder, j);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await signals;
    // The last state served for certain: one more signal after every change, then its pass ends.
    const last = server.log.length;
    server.signal('SIGHUP');
    await server.waitForLog(/reload: (now serving|unchanged)/, 20_000, last);
    stop = true;
    await Promise.all(streams);

    const passes = server.log
      .slice(from)
      .filter((l) => /reload: (now serving|unchanged|snapshot rejected|failed)/.test(l));
    // A file replaced while a pass reads it is refused as such (read again at the next signal); nothing else fails.
    const failed = passes.filter(
      (l) =>
        /rejected|failed/.test(l) &&
        !/(the file changed|files changed) while (it|the folder) was being read; load the folder again/.test(l),
    );
    assert.deepEqual(failed, [], `no pass failed otherwise; the log:\n${server.log.slice(from).join('\n')}`);
    const merged = passes.filter((l) => /merged new rows into/.test(l)).length;
    assert.ok(merged >= 1, `editions made by merging new rows: ${merged}\n${passes.join('\n')}`);
    const versions = new Set(seen.map((s) => s.version));
    assert.ok(versions.size >= 2, `answers from several editions (${versions.size})`);
    for (const s of seen) {
      const reference = references.get(s.version);
      assert.ok(reference !== undefined, `${s.path}: ${s.version} is the full store of no state the folder was in`);
      const expected = await reference.get(s.path, { key: reference.keys.internal });
      assert.equal(s.status, expected.status, `${s.path} on ${s.version}`);
      assert.equal(s.body, expected.text, `${s.path} on ${s.version}: that edition's own answer`);
    }
    const final = await ask(server, '/api/v1/markets', key);
    const full = [...references.values()].at(-1)!;
    assert.equal(final.version, full.dataset.version, 'the folder as it ended is served');
    console.log(`# ${seen.length} answers over ${versions.size} editions, ${merged} of them merged`);
  } finally {
    await server.kill();
    for (const r of references.values()) await r.close();
  }
});

/** A generated demo (large markets read in place from the map), made once for the tests below. */
let demo: string | null = null;
async function demoFolder(): Promise<string> {
  if (demo !== null) return demo;
  const folder = join(dir.path, 'demo');
  const made = spawnSync(process.execPath, [GEN_DEMO, '--out', folder, '--scale', '0.1', '--years', '5'], {
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, made.stderr);
  demo = folder;
  return folder;
}

test('a day appended to every market, then SIGHUP, four evenings in a row: each merged, each the edition a full store of the folder makes', async () => {
  const folder = join(dir.path, 'evenings');
  await cp(await demoFolder(), folder, { recursive: true });
  const server = await startServerProcess({
    snapshot: folder,
    state: join(dir.path, 'evenings-state'),
    env: { THREADS: '2' },
    timeoutMs: 60_000,
  });
  try {
    const key = server.keys.internal!;
    for (let evening = 1; evening <= 4; evening++) {
      const added = await appendDays(folder, 1);
      const from = server.log.length;
      server.signal('SIGHUP');
      const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 60_000, from);
      assert.match(
        line,
        /now serving .* merged new rows into ashare, hkstock, usstock, crypto, indices, etfs, in/,
        `evening ${evening}`,
      );
      const full = await storeEdition(folder, join(dir.path, `evenings-full-${evening}`), { threads: 0 });
      const markets = await ask(server, '/api/v1/markets', key);
      assert.equal(markets.version, full.version, `evening ${evening}: the X-Data-Version of a full store`);
      assert.equal(
        JSON.parse(markets.body).data.reduce((n: number, m: { rows: number }) => n + m.rows, 0),
        full.rows,
      );
      assert.ok(added > 0);
    }
  } finally {
    await server.kill();
  }
});

test('SIGKILL in the middle of a merge: the next start serves an intact edition, the one before or the new one, never a damaged one', async () => {
  const folder = join(dir.path, 'kill');
  await cp(await demoFolder(), folder, { recursive: true });
  const state = join(dir.path, 'kill-state');
  let server = await startServerProcess({ snapshot: folder, state, timeoutMs: 60_000 });
  const key = server.keys.internal!;
  const versions = [server.version];
  let interrupted = 0;
  const orphans: number[] = [];
  const ashare = join(folder, 'ashare/klines.csv');
  const lastLine = (await readFile(ashare, 'utf8')).trimEnd().split('\n').at(-1)!.split(',');
  try {
    // Each round: a day appended to ashare (its only new bytes), SIGHUP, SIGKILL at a later moment of the merge.
    for (const [round, delayMs] of [0, 40, 120, 300].entries()) {
      const date = weekdayAfter(lastLine[1], 1 + round);
      await appendFile(ashare, `${[lastLine[0], date, ...lastLine.slice(2)].join(',')}\n`);
      versions.push((await storeEdition(folder, join(dir.path, `kill-ref-${round}`), { threads: 0 })).version);
      const from = server.log.length;
      server.signal('SIGHUP');
      await server.waitForLog(/reload: reading/, 10_000, from);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      process.kill(server.pid, 'SIGKILL');
      await server.exited;
      // A store under way when the server was killed: its marker names its process (see below).
      const running = await storeMarkers(state);
      if (running.length > 0) interrupted++;
      orphans.push(...running);
      server = await startServerProcess({ snapshot: folder, state, timeoutMs: 60_000 });
      assert.ok(
        versions.slice(-2).includes(server.version),
        `round ${round}: the next start serves the edition before or the new one (${server.version})`,
      );
      assert.equal((await httpRequest(server.port, '/readyz')).status, 200);
      // It then stores the folder as it is (the merge again) and serves that: the day appended.
      let latest = await ask(server, `/api/v1/ashare/klines/${lastLine[0]}?limit=1`, key);
      for (let waited = 0; latest.version !== versions.at(-1) && waited < 60_000; waited += 200) {
        await new Promise((r) => setTimeout(r, 200));
        latest = await ask(server, `/api/v1/ashare/klines/${lastLine[0]}?limit=1`, key);
      }
      assert.equal(latest.status, 200);
      assert.equal(latest.version, versions.at(-1), `round ${round}: the folder as it is, served`);
      assert.match(latest.body, new RegExp(date), `round ${round}: the day appended`);
      assert.ok(
        !server.log.some((l) => /damaged|set aside|"level":(50|60)/.test(l)),
        `round ${round}: nothing damaged or failed:\n${server.log.join('\n')}`,
      );
    }
  } finally {
    await server.kill();
  }
  assert.ok(interrupted >= 1, 'at least one SIGKILL landed while a store was under way');
  console.log(`# ${interrupted} of 4 kills landed while a store was under way`);
  // A store the SIGKILL orphaned ends by itself, its server gone.
  for (const pid of orphans) {
    for (let waited = 0; alive(pid) && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(pid), false, `the orphaned store ${pid} ended by itself`);
  }
});
