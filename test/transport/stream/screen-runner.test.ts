// PooledScreens: each distinct (edition, market, query) screen runs once on the pool however many
// ask (this thread by Dataset, serving threads by origin), the screens of one turn in one task per
// worker, a run kept while some ask stands on it (and two editions at most), a failed run tried
// again; its pages equal the inline screen's on the real pool; in a server, screens subscribed and
// left keep nothing while one still stood on follows each edition.

import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Dataset, DatasetOrigin } from '../../../engine/dataset/dataset.js';
import type { Market } from '../../../engine/markets.js';
import { KernelPool } from '../../../engine/pool/pool.js';
import type { ScreenQuery, ScreenResult } from '../../../engine/queries/screen.js';
import { POOL_SOURCE_MODULE } from '../../../loaders/edition/open-edition.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import {
  INLINE_SCREENS,
  PooledScreens,
  screenQueryKey,
  screenQueryMessage,
  screenQueryOf,
} from '../../../transport/stream/screen-runner.js';
import { FIXTURE, startTestServer } from '../../helpers/api-server.js';
import { fixtureCopy } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';
import { type StreamClient, welcomed } from '../../helpers/stream-client.js';

const q = (limit: number, min = -Infinity): ScreenQuery => ({
  bounds: new Map([['pe_ratio', { min, max: Infinity }]]),
  sort: 'close',
  descending: true,
  offset: 0,
  limit,
});

/** A pool that counts its runs and answers a fixed page (or fails while `failing`). */
function countingPool() {
  const calls: string[] = [];
  let failing = false;
  const answer = async (key: string): Promise<ScreenResult> => {
    calls.push(key);
    await new Promise((r) => setTimeout(r, 5));
    if (failing) throw new Error('worker died');
    return { total: 1, rows: [0] };
  };
  const kernels = {
    threads: 2,
    screen: (d: Dataset, m: Market, sq: ScreenQuery) => answer(`${d.version}|${screenQueryKey(m, sq)}`),
    screensAt: (o: DatasetOrigin, asks: { market: Market; q: ScreenQuery }[]) =>
      Promise.all(asks.map(({ market, q: sq }) => answer(`${o.key}|${screenQueryKey(market, sq)}`))),
  };
  return {
    runner: new PooledScreens(kernels as unknown as KernelPool),
    calls,
    fail: (on: boolean) => void (failing = on),
  };
}

const edition = (version: string): Dataset =>
  ({ version, origin: { key: `state\n${version}`, ref: {} } }) as unknown as Dataset;

test('one run per distinct screen per edition, whoever asks and however often; a new edition runs it again', async () => {
  const { runner, calls } = countingPool();
  const [e1, e2] = [edition('v1'), edition('v2')];
  await Promise.all([
    ...Array.from({ length: 50 }, () => runner.run(e1, 'ashare', q(3))),
    ...Array.from({ length: 50 }, () => runner.runAt(e1.origin!, 'ashare', q(3))),
    runner.run(e1, 'ashare', q(4)),
    runner.run(e1, 'hkstock', q(3)),
    runner.run(e1, 'ashare', { ...q(3), bounds: new Map([['pe_ratio', { min: 0, max: Infinity }]]) }),
  ]);
  assert.equal(calls.length, 4, calls.join('\n'));
  assert.equal(runner.tasks, 2, 'the four screens asked in one turn went to the pool in one task per worker (2)');
  await runner.run(e2, 'ashare', q(3));
  await runner.runAt(e1.origin!, 'ashare', q(3));
  assert.equal(calls.length, 5, 'e1 is still remembered beside e2');
  await runner.run(edition('v3'), 'ashare', q(3));
  await runner.run(e1, 'ashare', q(3));
  assert.equal(calls.length, 7, 'a third edition lets the oldest go');
});

test('a resolved run is kept while an ask stands on it: the last release lets it go, a later ask runs it again', async () => {
  const { runner, calls } = countingPool();
  const e1 = edition('v1');
  await Promise.all([runner.run(e1, 'ashare', q(3)), runner.runAt(e1.origin!, 'ashare', q(3))]);
  assert.equal(runner.kept, 1);
  runner.release(e1, 'ashare', q(3));
  await runner.run(e1, 'ashare', q(3));
  assert.equal(calls.length, 1, 'still stood on by one ask: the same run');
  runner.release(e1, 'ashare', q(3));
  runner.releaseAt(e1.origin!, 'ashare', q(3));
  assert.equal(runner.kept, 0, 'nobody stands on it: forgotten');
  runner.release(e1, 'ashare', q(3)); // one release too many, or of a screen never run: nothing happens
  runner.release(edition('v9'), 'ashare', q(9));
  await runner.run(e1, 'ashare', q(3));
  assert.equal(calls.length, 2, 'asked again: run again');
  assert.equal(runner.kept, 1);
});

test('a run released before it resolves is forgotten once it does', async () => {
  const { runner } = countingPool();
  const running = runner.run(edition('v1'), 'ashare', q(3));
  runner.release(edition('v1'), 'ashare', q(3));
  assert.equal(runner.kept, 1, 'kept while it runs: a thread asking now joins it');
  await running;
  assert.equal(runner.kept, 0);
});

test('a failed run is tried again by the next ask', async () => {
  const { runner, calls, fail } = countingPool();
  fail(true);
  await assert.rejects(runner.run(edition('v1'), 'ashare', q(3)), /worker died/);
  fail(false);
  assert.deepEqual(await runner.run(edition('v1'), 'ashare', q(3)), { total: 1, rows: [0] });
  assert.equal(calls.length, 2);
});

test('a query posted between threads is the same query; bound order does not make another screen', () => {
  const a = q(3, 1);
  assert.deepEqual(screenQueryOf(structuredClone(screenQueryMessage(a))), a);
  const range = { pe_ratio: { min: 1, max: 2 }, close: { min: 3, max: 4 } } as const;
  const two = (first: 'pe_ratio' | 'close', second: 'pe_ratio' | 'close'): ScreenQuery => ({
    ...q(3),
    bounds: new Map([
      [first, range[first]],
      [second, range[second]],
    ]),
  });
  assert.equal(screenQueryKey('ashare', two('pe_ratio', 'close')), screenQueryKey('ashare', two('close', 'pe_ratio')));
});

test('on the real pool (a worker opening the edition itself) the pages equal the inline screen', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mdq-pooled-screens-'));
  const kernels = new KernelPool(1, POOL_SOURCE_MODULE);
  t.after(async () => {
    await kernels.close();
    await rm(dir, { recursive: true, force: true });
  });
  await storeEdition(FIXTURE, dir, { threads: 0 });
  const dataset = (await openCurrentDataset(dir))!;
  kernels.setLive([dataset.origin!.key]);
  const runner = new PooledScreens(kernels);
  for (const query of [q(3), q(50, 10), { ...q(2), descending: false, offset: 1 }]) {
    const inline = await INLINE_SCREENS.run(dataset, 'ashare', query);
    const pooled = await runner.run(dataset, 'ashare', query);
    const remote = await runner.runAt(dataset.origin!, 'ashare', { ...query, limit: query.limit }); // the same run
    assert.deepEqual(
      { total: pooled.total, rows: Array.from(pooled.rows) },
      { total: inline.total, rows: Array.from(inline.rows) },
    );
    assert.equal(remote, pooled);
  }
});

test('in a server on the real pool: many screens subscribed and left keep nothing; a screen still stood on follows every edition', async (t) => {
  const kernels = new KernelPool(1, POOL_SOURCE_MODULE);
  const runner = new PooledScreens(kernels);
  const server = await startTestServer({ streamScreens: runner });
  const folders = await tempDir('mdq-screen-runs-');
  const sockets: StreamClient[] = [];
  t.after(async () => {
    for (const s of sockets) s.ws.terminate();
    await server.close();
    await kernels.close();
    await folders.cleanup();
  });
  kernels.setLive([server.dataset.origin!.key]);
  const keeper = await welcomed(server.port, { key: server.keys.internal });
  const flooder = await welcomed(server.port, { key: server.keys.internal });
  sockets.push(keeper, flooder);
  const kept = { market: 'ashare', query: { sort: 'close', order: 'desc', limit: 3 } };
  keeper.send({ action: 'subscribe', channel: 'screen', id: 'kept', ...kept });
  const first = await keeper.waitFor((m) => m.type === 'screen');
  assert.equal(first.data_version, server.dataset.version);

  // Each pair a screen of its own (another bound): half left after their first page, half before it.
  const PAIRS = 200;
  for (let i = 0; i < PAIRS; i++) {
    const from = flooder.messages.length;
    const query = { min_pe_ratio: String(-1000 - i), limit: 5 };
    flooder.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'x', query });
    if (i % 2 === 0) await flooder.waitFor((m) => m.type === 'screen', 5000, from);
    flooder.send({ action: 'unsubscribe', channel: 'screen', id: 'x' });
    await flooder.waitFor((m) => m.type === 'unsubscribed', 5000, from);
  }
  await until(
    () => runner.kept === 1,
    () => `${runner.kept} runs kept after ${PAIRS} screens left`,
  );
  assert.equal(runner.ran, PAIRS + 1, 'every screen ran (none was served from another)');

  // Two more editions: the screen still stood on gets each one's page, equal to GET /screen of it; nothing else runs.
  for (const [n, close] of [
    [1, '6.00'],
    [2, '7.00'],
  ] as const) {
    const folder = await fixtureCopy(join(folders.path, `E${n}`));
    await appendFile(
      join(folder, 'ashare/klines.csv'),
      `sz000005,2025-03-17,5.30,${close},5.29,${close},9000,5200000.00,\n`,
    );
    await storeEdition(folder, server.stateDir, { threads: 0 });
    const next = (await openCurrentDataset(server.stateDir))!;
    kernels.setLive([next.origin!.key]);
    server.state.dataset = next;
    server.stream.published(next);
    const page = await keeper.waitFor((m) => m.type === 'screen' && m.data_version === next.version);
    const rest = await server.get('/api/v1/ashare/screen?sort=close&order=desc&limit=3', { key: server.keys.internal });
    assert.equal(rest.headers['x-data-version'], next.version);
    assert.deepEqual(
      [page.total, page.data],
      [rest.body.total, rest.body.data],
      `edition ${n}: the page GET /screen answers`,
    );
    await until(
      () => runner.kept === 1,
      () => `${runner.kept} runs kept after edition ${n}`,
    );
    assert.equal(runner.ran, PAIRS + 1 + n, 'one run for the edition: the screens left are not run again');
  }
  keeper.send({ action: 'unsubscribe', channel: 'screen', id: 'kept' });
  await keeper.waitFor((m) => m.type === 'unsubscribed');
  assert.equal(runner.kept, 0, 'the last screen left: nothing kept');
});

/** Waits (up to 5 s) until `done` holds; fails saying `what`. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(what());
    await new Promise((r) => setTimeout(r, 10));
  }
}
