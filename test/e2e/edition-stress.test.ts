// A released edition is never read: a server with two serving threads and the kernel pool (screens
// and as-of tables on it) reloads between two folders every 100 ms under a stream of requests, and
// every answer must be the answer of the edition its X-Data-Version names (checked against servers
// holding each edition alone). The folders are a generated demo whose large markets are read in
// place from the memory map (16 MiB and more): reading a closed map would be a crash or wrong numbers.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { httpRequest, startTestServer, type TestServer } from '../helpers/api-server.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const GEN_DEMO = new URL('../../loaders/demo/cli.js', import.meta.url).pathname;
const PATHS = [
  '/api/v1/ashare/klines/sh600000?limit=3',
  '/api/v1/ashare/klines/sh600000?limit=2&adj=qfq',
  '/api/v1/ashare/klines/sh600003?start=2022-01-01&limit=50&fields=c,v',
  '/api/v1/ashare/detail/sh600000?fields=close,volume,ma5,chg_5d,volume_ratio',
  '/api/v1/ashare/screen?sort=volume&limit=5&fields=volume',
  '/api/v1/ashare/screen?sort=change_percent&order=asc&fields=close',
  '/api/v1/ashare/detail/sh600000?as_of=2024-06-28',
  '/api/v1/ashare/klines?symbols=sh600000,sh600003&date=2024-06-28',
  '/api/v1/markets',
];

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
const references = new Map<string, TestServer>();

before(async () => {
  dir = await tempDir('mdq-stress-');
  const a = join(dir.path, 'a');
  const b = join(dir.path, 'b');
  const made = spawnSync(process.execPath, [GEN_DEMO, '--out', a, '--scale', '0.1', '--years', '5'], {
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, made.stderr);
  // B: sh600000's last day traded one lot more (its K-lines, snapshot and screens by volume differ).
  await cp(a, b, { recursive: true });
  const path = join(b, 'ashare/klines.csv');
  const lines = (await readFile(path, 'utf8')).split('\n');
  const last = lines.findLastIndex((l) => l.startsWith('sh600000,'));
  const cells = lines[last].split(',');
  cells[6] = String(Number(cells[6]) + 1);
  lines[last] = cells.join(',');
  await writeFile(path, lines.join('\n'));
  const link = join(dir.path, 'current');
  await symlink(a, link);
  // Screens of every market on the pool (the main thread's), every thread's answers uncached so each reads the edition.
  server = await startServerProcess({
    snapshot: link,
    state: join(dir.path, 'state'),
    env: {
      THREADS: '2',
      SCREEN_POOL_MIN_ROWS: '0',
      RESPONSE_CACHE_MB: '0',
      KLINE_TEXT_CACHE_MB: '0',
      AS_OF_CACHE_MB: '0',
    },
    timeoutMs: 60_000,
  });
  for (const folder of [a, b]) {
    const reference = await startTestServer({ snapshot: folder, responseCache: null });
    assert.ok(
      reference.dataset.markets.ashare.klines.close.buffer.byteLength >= 16 * 1024 * 1024,
      'ashare is read in place (mapped)',
    );
    references.set(reference.dataset.version, reference);
  }
});
after(async () => {
  await server?.kill();
  for (const r of references.values()) await r.close();
  await dir?.cleanup();
});

test("reloads every 100 ms under a request stream: every answer is its own edition's, the server never stops", async () => {
  const link = join(dir.path, 'current');
  const folders = [join(dir.path, 'a'), join(dir.path, 'b')];
  const key = server.keys.internal!;
  // B stored once first (a second or so): from then on each flip is a switch between stored editions.
  await repoint(link, folders[1]);
  const from = server.log.length;
  process.kill(server.pid, 'SIGHUP');
  await server.waitForLog(/reload: now serving/, 30_000, from);
  let stop = false;
  let reloads = 0;
  const flipping = (async () => {
    for (let i = 1; !stop; i++) {
      await repoint(link, folders[i % 2]);
      process.kill(server.pid, 'SIGHUP');
      reloads++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const seen: { path: string; version: string; status: number; body: string }[] = [];
  const streams = Array.from({ length: 6 }, async (_, s) => {
    for (let i = s; !stop; i++) {
      const path = PATHS[i % PATHS.length];
      const r = await httpRequest(server.port, path, { headers: { 'x-api-key': key } });
      seen.push({ path, version: String(r.headers['x-data-version']), status: r.status, body: r.text });
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  stop = true;
  await Promise.all([flipping, ...streams]);
  await server.waitForLog(/reload: (now serving|unchanged)/, 10_000, server.log.length - 1).catch(() => {}); // the last pass ends
  const versions = new Set(seen.map((s) => s.version));
  assert.equal(versions.size, 2, `both editions answered (${[...versions].join(', ')})`);
  const loaded = server.log.filter((l) => l.includes('reload: now serving')).length;
  assert.ok(loaded >= 10, `the editions changed at least 10 times under the stream (${loaded} of ${reloads} signals)`);
  for (const s of seen) {
    const reference = references.get(s.version);
    assert.ok(reference !== undefined, `a version the server may serve: ${s.version}`);
    const expected = await reference.get(s.path, { key: reference.keys.internal });
    assert.equal(s.status, expected.status, `${s.path} on ${s.version}`);
    assert.equal(s.body, expected.text, `${s.path} on ${s.version}: the edition's own answer`);
  }
  assert.equal((await httpRequest(server.port, '/readyz')).status, 200, 'still serving');
  assert.equal(
    server.log.some((l) => /"level":(50|60)/.test(l)),
    false,
    'no error logged',
  );
  console.log(`# ${seen.length} answers over ${loaded} editions published in 8 s, each its own edition's`);
});
