// SIGHUP reload of the real server process under a request stream: one switch, no error, bad data rejected.

import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631, ROW_13, ROW_13_HIGH_BELOW_LOW } from '../helpers/fixture-copy.js';
import { KeepAliveClient } from '../helpers/keep-alive.js';
import { startRequestStream, type StreamRecord, waitForAnswers } from '../helpers/request-stream.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const KLINES = '/api/v1/ashare/klines/sh600001?limit=5';
const PATHS = ['/api/v1/markets', KLINES];

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
/** Folders: A (the fixture), B (sh600001's last close 6.31), C (a row with high < low). */
let A: string, B: string, C: string, link: string;
let versionA: string;
let versionB: string;
let headers: Record<string, string>;

before(async () => {
  dir = await tempDir('mdq-reload-');
  A = await fixtureCopy(join(dir.path, 'A'));
  B = await fixtureCopy(join(dir.path, 'B'), [{ file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 }]);
  C = await fixtureCopy(join(dir.path, 'C'), [{ file: 'ashare/klines.csv', from: ROW_13, to: ROW_13_HIGH_BELOW_LOW }]);
  link = join(dir.path, 'current');
  await symlink(A, link);
  server = await startServerProcess({ snapshot: link, state: join(dir.path, 'state') });
  versionA = server.version;
  headers = { 'x-api-key': server.keys.internal! }; // no rate limit: the stream measures reloads, not limits
});

after(async () => {
  await server?.kill();
  await dir?.cleanup();
});

/** One GET on a fresh connection. */
async function get(path: string) {
  const client = new KeepAliveClient(server.port);
  try {
    const ex = await client.get(path, headers);
    assert.equal(ex.kind, 'response', `GET ${path} is answered (${JSON.stringify(ex)})`);
    return ex as Extract<typeof ex, { kind: 'response' }>;
  } finally {
    client.close();
  }
}

/** Last close of sh600001 in a K-line answer. */
const lastClose = (body: Buffer): number => JSON.parse(body.toString('utf8')).data.at(-1).close;

/** Sends SIGHUP and resolves with the reload's outcome line (now serving / unchanged / rejected / failed). */
async function reload(): Promise<{ line: string; seconds: number | null }> {
  const from = server.log.length;
  server.signal('SIGHUP');
  const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 10_000, from);
  const s = /(?:in |\()([\d.]+) s\)?/.exec(line);
  return { line, seconds: s === null ? null : Number(s[1]) };
}

test('under a keep-alive request stream, a SIGHUP onto B switches each connection from A to B exactly once, with no error', async () => {
  const stream = startRequestStream({
    port: server.port,
    connections: 4,
    paths: PATHS,
    headers,
    maxPerConnection: 20_000,
  });
  try {
    await waitForAnswers(stream, 40);
    await repoint(link, B);
    const { line } = await reload();
    const m = /reload: now serving (\S+) /.exec(line);
    assert.ok(m !== null, `the reload loads B (${line})`);
    versionB = m[1];
    assert.notEqual(versionB, versionA, 'B has a version of its own');
    await waitForAnswers(stream, 40);
  } finally {
    await stream.stop();
  }
  const all: StreamRecord[] = stream.records.flat();
  const failures = all.filter((r) => r.exchange.kind !== 'response' || r.exchange.status !== 200);
  assert.deepEqual(
    failures.slice(0, 3),
    [],
    `every one of ${all.length} requests is answered 200 (${failures.length} not)`,
  );
  stream.records.forEach((lane, n) => {
    const versions = lane.map((r) => (r.exchange.kind === 'response' ? r.exchange.headers['x-data-version'] : ''));
    const switches = versions.filter((v, i) => i > 0 && v !== versions[i - 1]).length;
    assert.equal(versions[0], versionA, `connection ${n} starts on A`);
    assert.equal(versions.at(-1), versionB, `connection ${n} ends on B`);
    assert.equal(
      switches,
      1,
      `connection ${n} switches version exactly once, never back to A after B (${switches} switches)`,
    );
  });
  for (const r of all) {
    if (r.exchange.kind !== 'response' || r.path !== KLINES) continue;
    const expected = r.exchange.headers['x-data-version'] === versionA ? 6.3 : 6.31;
    assert.equal(
      lastClose(r.exchange.body),
      expected,
      `a K-line answer labelled ${r.exchange.headers['x-data-version']} carries that version's data`,
    );
  }
});

test("after the reload, new requests answer B's data with B's version", async () => {
  const res = await get(KLINES);
  assert.equal(res.headers['x-data-version'], versionB, 'X-Data-Version names B');
  assert.equal(lastClose(res.body), 6.31, 'sh600001 closes at 6.31 as B says');
});

test('a SIGHUP onto an unchanged folder is a fast no-op: the log says unchanged and the version stays', async () => {
  const { line, seconds } = await reload();
  assert.match(line, /reload: unchanged, still serving/, 'the log says the folder is unchanged');
  assert.ok(seconds !== null && seconds < 1, `the no-op takes under 1 s (${seconds} s)`);
  assert.equal((await get('/healthz')).headers['x-data-version'], versionB, 'B still serves');
});

test('a SIGHUP onto a snapshot with high < low is rejected with file:line in the log, and B keeps answering', async () => {
  await repoint(link, C);
  const { line } = await reload();
  assert.match(
    line,
    /reload: snapshot rejected: ashare\/klines\.csv:\d+: .*; still serving /,
    'the log names file:line and the reason',
  );
  assert.ok(
    String((JSON.parse(line) as { msg: string }).msg).endsWith(versionB),
    `the log says B still serves (${line})`,
  );
  const res = await get(KLINES);
  assert.equal(res.status, 200, 'the API still answers');
  assert.equal(res.headers['x-data-version'], versionB, "with B's version");
  assert.equal(lastClose(res.body), 6.31, "and B's data");
});

test('switching back from the rejected folder to B is recognised as unchanged', async () => {
  await repoint(link, B);
  const { line } = await reload();
  assert.match(line, /reload: unchanged, still serving /, 'B is what serves already');
});

test("two SIGHUPs in quick succession, the folder repointed between them, end on the folder's last target", async (t) => {
  const from = server.log.length;
  await repoint(link, A);
  server.signal('SIGHUP');
  server.signal('SIGHUP'); // may coalesce with the first: either way one more pass or none
  await server.waitForLog(/reload: reading/, 5000, from);
  await repoint(link, B); // during the first pass: the reloader must pass once more
  server.signal('SIGHUP');
  // Settle: every started pass has logged its outcome and nothing new started for 500 ms.
  const passes = (): [number, number] => {
    const lines = server.log.slice(from);
    return [
      lines.filter((l) => /reload: reading/.test(l)).length,
      lines.filter((l) => /reload: (now serving|unchanged|snapshot rejected|failed)/.test(l)).length,
    ];
  };
  const until = Date.now() + 10_000;
  let quietSince = Date.now();
  let last = '';
  while (Date.now() - quietSince < 500) {
    assert.ok(Date.now() < until, `reloads settle within 10 s (log:\n${server.log.slice(from).join('\n')})`);
    const now = JSON.stringify(passes());
    if (now !== last || passes()[0] !== passes()[1]) (quietSince = Date.now()), (last = now);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const lines = server.log.slice(from);
  t.diagnostic(lines.join(' | '));
  assert.ok(
    !lines.some((l) => /reload: (failed|snapshot rejected)/.test(l)),
    `no pass fails (log:\n${lines.join('\n')})`,
  );
  const health = await get('/healthz');
  assert.equal(health.status, 200, 'the server is alive and healthy');
  assert.equal(
    health.headers['x-data-version'],
    versionB,
    `it serves B, the folder's last target (log:\n${lines.join('\n')})`,
  );
  assert.equal(lastClose((await get(KLINES)).body), 6.31, "with B's data");
});
