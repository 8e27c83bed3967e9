// The as-of cache: one build per (Dataset, market, day) however many requests wait for it,
// kept views answered at once, a replaced Dataset starting it over, the byte budget, failures.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asOfBytes, AsOfCache, type DeriveAsOf, sharedBytes } from '../../engine/dataset/as-of.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { deriveSnapshots, type SnapshotTable } from '../../engine/kernels/derive-snapshot.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';

let server: TestServer;
let dataset: Dataset;
let ashare: MarketData;
before(async () => {
  server = await startTestServer();
  dataset = server.dataset;
  ashare = dataset.markets.ashare;
});
after(() => server.close());

const DAY = Date.UTC(2025, 0, 15) / 86_400_000;

/** A derive that answers later, when the test says, counting its calls. */
function laterDerive(): { derive: DeriveAsOf; calls: () => number; finish: () => void; fail: (error: Error) => void } {
  let calls = 0;
  const waiting: { resolve: (t: SnapshotTable) => void; reject: (e: Error) => void; table: SnapshotTable }[] = [];
  const derive: DeriveAsOf = (m, day, symbols) => {
    calls++;
    const table = deriveSnapshots(m.market, m.klines, m.fundamentals, day, symbols);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject, table }));
  };
  return {
    derive,
    calls: () => calls,
    finish: () => waiting.splice(0).forEach((w) => w.resolve(w.table)),
    fail: (error) => waiting.splice(0).forEach((w) => w.reject(error)),
  };
}

test('no day, or a day on or after the last row, is the market itself', () => {
  const cache = new AsOfCache(1 << 30);
  assert.equal(cache.at(dataset, ashare, null), ashare);
  assert.equal(cache.at(dataset, ashare, ashare.lastDate!), ashare);
  assert.equal(cache.at(dataset, ashare, ashare.lastDate! + 400), ashare);
});

test('requests arriving while a view is built wait for that one build; then it is answered at once', async () => {
  const cache = new AsOfCache(1 << 30);
  const later = laterDerive();
  const first = cache.at(dataset, ashare, DAY, later.derive);
  const second = cache.at(dataset, ashare, DAY, later.derive);
  assert.ok(first instanceof Promise && second instanceof Promise);
  assert.equal(later.calls(), 1, 'one build for both');
  later.finish();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(a, b);
  assert.equal(a.snapshots.asOf, DAY);
  const third = cache.at(dataset, ashare, DAY, later.derive);
  assert.equal(third, a, 'kept: the same view, not a promise');
  assert.equal(later.calls(), 1);
});

test('another Dataset (a reload, even of the same version) starts the cache over', async () => {
  const cache = new AsOfCache(1 << 30);
  const kept = cache.at(dataset, ashare, DAY);
  const reloaded = { ...dataset, markets: { ...dataset.markets } } as Dataset;
  const again = cache.at(reloaded, ashare, DAY);
  assert.notEqual(again, kept, 'built anew for the new Dataset');
  assert.deepEqual(again.snapshots.values.close, kept.snapshots.values.close);
});

test('a build finishing after a reload is answered but not kept', async () => {
  const cache = new AsOfCache(1 << 30);
  const later = laterDerive();
  const pending = cache.at(dataset, ashare, DAY, later.derive);
  const reloaded = { ...dataset } as Dataset;
  cache.at(reloaded, ashare, DAY - 1); // the new Dataset's first as_of
  later.finish();
  const view = await pending;
  assert.equal(view.snapshots.asOf, DAY);
  assert.ok(cache.at(reloaded, ashare, DAY, later.derive) instanceof Promise, 'not kept for the new Dataset');
  assert.equal(later.calls(), 2);
});

test('views past the byte budget are served and not kept; the least recently used goes first', () => {
  const one = asOfBytes(new AsOfCache(1 << 30).at(dataset, ashare, DAY));
  const none = new AsOfCache(one - 1);
  assert.notEqual(none.at(dataset, ashare, DAY), none.at(dataset, ashare, DAY), 'each request builds its own');
  const two = new AsOfCache(Math.floor(one * 2.5));
  const a = two.at(dataset, ashare, DAY);
  const b = two.at(dataset, ashare, DAY - 1);
  assert.equal(two.at(dataset, ashare, DAY), a, 'a used again: b is now the oldest');
  two.at(dataset, ashare, DAY - 2); // a third view: b goes
  assert.equal(two.at(dataset, ashare, DAY), a);
  assert.notEqual(two.at(dataset, ashare, DAY - 1), b);
});

test('a failed build reaches every waiting request and is tried again by the next', async () => {
  const cache = new AsOfCache(1 << 30);
  const later = laterDerive();
  const first = cache.at(dataset, ashare, DAY, later.derive);
  const second = cache.at(dataset, ashare, DAY, later.derive);
  later.fail(new Error('worker died'));
  await assert.rejects(first as Promise<unknown>, /worker died/);
  await assert.rejects(second as Promise<unknown>, /worker died/);
  const retry = cache.at(dataset, ashare, DAY, later.derive);
  assert.equal(later.calls(), 2);
  later.finish();
  assert.equal((await retry).snapshots.asOf, DAY);
});

test('every view let go is told with its shared bytes: evicted, served without being kept, cleared by another Dataset', () => {
  const one = asOfBytes(new AsOfCache(1 << 30).at(dataset, ashare, DAY));
  const told: number[] = [];
  const cache = new AsOfCache(Math.floor(one * 1.5), (bytes) => told.push(bytes));
  const first = cache.at(dataset, ashare, DAY);
  assert.equal(told.length, 0, 'kept: nothing let go');
  cache.at(dataset, ashare, DAY - 1); // the first goes
  assert.deepEqual(told, [sharedBytes(first)], "the evicted view's shared bytes");
  assert.equal(sharedBytes(first), first.snapshots.date.buffer.byteLength);
  const small = new AsOfCache(one - 1, (bytes) => told.push(bytes));
  small.at(dataset, ashare, DAY);
  assert.equal(told.length, 2, 'served and not kept');
  cache.at({ ...dataset } as Dataset, ashare, DAY);
  assert.equal(told.length, 3, 'the views of the replaced Dataset');
});
