// The whole-answer cache: a repeated request gets the same bytes, is still limited and
// charged, never crosses plans or Datasets, and answers exactly as the uncached server does.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let cached: TestServer;
let uncached: TestServer;
before(async () => {
  cached = await startTestServer();
  uncached = await startTestServer({ responseCache: null });
});
after(async () => {
  await cached.close();
  await uncached.close();
});

/** Entries in the cached server's cache for its current Dataset. */
const entries = (): number => cached.caches.of(cached.state.dataset!).answers!.stats.entries;

const PATHS = [
  '/api/v1/ashare/klines/sh600001?limit=5&adj=qfq',
  '/api/v1/ashare/klines?symbols=sh600001,nope,sz000003&fields=close,open',
  '/api/v1/ashare/detail/sh600001?fields=pe_ratio,close',
  '/api/v1/hkstock/detail?symbols=hk09988,hk00700',
  '/api/v1/ashare/screen?min_close=1&sort=close&order=asc&limit=2',
  '/api/v1/usstock/symbols?search=a',
  '/api/v1/markets',
  '/api/v1/macro?indicator=cpi_ppi&limit=3',
];

test('every cacheable endpoint answers the third time byte for byte as a server without the cache', async () => {
  for (const path of PATHS) {
    const reference = await uncached.get(path);
    assert.equal(reference.status, 200, `${path}: ${reference.text}`);
    for (let n = 1; n <= 3; n++) {
      const res = await cached.get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.text, reference.text, `${path}, request ${n}`);
      assert.equal(res.headers['content-type'], reference.headers['content-type']);
      assert.equal(res.headers['x-data-version'], cached.dataset.version);
    }
  }
});

test('an answer is kept only the second time it is asked, so one-off requests allocate nothing', async () => {
  const path = '/api/v1/ashare/screen?min_close=2&limit=3';
  const before = entries();
  await cached.get(path);
  assert.equal(entries(), before, 'first time: remembered as asked, not kept');
  await cached.get(path);
  assert.equal(entries(), before + 1, 'second time: kept');
  await cached.get(path);
  assert.equal(entries(), before + 1, 'third time: served from the cache');
});

test('a cached answer is still rate limited and charged its rows against the quota', async () => {
  const path = '/api/v1/ashare/klines/sz000004?limit=4';
  const seen: { rate: number; quota: number; count: number }[] = [];
  for (let n = 0; n < 4; n++) {
    const res = await cached.get(path, { key: cached.keys.free });
    assert.equal(res.status, 200);
    seen.push({
      rate: Number(res.headers['x-ratelimit-remaining']),
      quota: Number(res.headers['x-quota-remaining']),
      count: res.body.count,
    });
  }
  assert.equal(seen[0].count, 4);
  for (let n = 1; n < 4; n++) {
    assert.equal(seen[n].rate, seen[n - 1].rate - 1, `request ${n + 1} took a token`);
    assert.equal(seen[n].quota, seen[n - 1].quota - 4, `request ${n + 1} was charged its 4 rows`);
  }
});

test('the plan is part of the key: a free key never gets the limit of a pro answer', async () => {
  const path = '/api/v1/ashare/klines/sh600001?limit=500';
  for (let n = 0; n < 3; n++) assert.equal((await cached.get(path, { key: cached.keys.pro })).body.limit, 500);
  const free = await cached.get(path, { key: cached.keys.free });
  assert.equal(free.status, 200);
  assert.equal(free.body.limit, 100, 'clamped to the free plan');
  const batch = '/api/v1/ashare/detail?symbols=sh600001,sz000002,sz000003,sz000005,sh600006,sh600007';
  for (let n = 0; n < 3; n++) assert.equal((await cached.get(batch, { key: cached.keys.pro })).status, 200);
  const tooLarge = await cached.get(batch, { key: cached.keys.free });
  assert.equal(tooLarge.status, 400, 'six symbols exceed the free batch of five, cached or not');
  assert.equal(tooLarge.body.code, 'batch_too_large');
});

test('after a swap to another Dataset, answers come from the new one only', async (t) => {
  const dir = await tempDir('mdq-cache-swap-');
  t.after(() => dir.cleanup());
  const folder = await fixtureCopy(`${dir.path}/snapshot`, [
    { file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 },
  ]);
  await storeEdition(folder, `${dir.path}/state`, { threads: 0 });
  const next = (await openCurrentDataset(`${dir.path}/state`))!;
  const path = '/api/v1/ashare/detail/sh600001?fields=close';
  const old = cached.state.dataset!;
  for (let n = 0; n < 3; n++) assert.equal((await cached.get(path)).body.data.close, 6.3);
  cached.state.dataset = next;
  t.after(() => (cached.state.dataset = old));
  const res = await cached.get(path);
  assert.equal(res.body.data.close, 6.31);
  assert.equal(res.headers['x-data-version'], next.version);
  assert.notEqual(next.version, old.version);
});

test('errors are never cached: the same bad request is judged afresh each time', async () => {
  const before = entries();
  for (let n = 0; n < 3; n++) {
    const res = await cached.get('/api/v1/ashare/klines/nope?limit=3');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'unknown_symbol');
  }
  assert.equal(entries(), before);
});
