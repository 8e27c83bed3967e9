// PooledScreens: each distinct (edition, market, query) screen runs once on the pool however many
// ask (this thread by Dataset, serving threads by origin), the screens of one turn in one task per
// worker, two editions remembered, a failed run tried again; its pages equal the inline screen's
// on the real pool.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
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
import { FIXTURE } from '../../helpers/api-server.js';

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
