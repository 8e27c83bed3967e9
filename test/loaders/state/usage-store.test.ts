// Usage store: counts per day and key, read back by day or by a range of days, old days pruned; each key's last use.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { StateStore } from '../../../loaders/state/state-store.js';

function tempStore(t: TestContext): StateStore {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-usage-'));
  const store = StateStore.open(dir);
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

test('readDay returns the counts of that day only', async (t) => {
  const store = tempStore(t);
  store.usage.put('2024-06-01', 'aaaa1111', 10, 2);
  store.usage.put('2024-06-02', 'aaaa1111', 5, 1);
  await store.usage.put('2024-06-02', 'bbbb2222', 7, 3);
  assert.deepEqual(
    [...store.usage.readDay('2024-06-02')],
    [
      ['aaaa1111', { used: 5, requests: 1 }],
      ['bbbb2222', { used: 7, requests: 3 }],
    ],
  );
});

test('a later put replaces the counts (absolute, not added)', async (t) => {
  const store = tempStore(t);
  store.usage.put('2024-06-01', 'aaaa1111', 10, 2);
  await store.usage.put('2024-06-01', 'aaaa1111', 12, 3);
  assert.deepEqual(store.usage.get('2024-06-01', 'aaaa1111'), { used: 12, requests: 3 });
});

test('pruneBefore removes earlier days and keeps the rest', async (t) => {
  const store = tempStore(t);
  store.usage.put('2024-04-30', 'aaaa1111', 1, 1);
  store.usage.put('2024-05-01', 'aaaa1111', 2, 2);
  await store.usage.put('2024-05-02', 'aaaa1111', 3, 3);
  assert.equal(await store.usage.pruneBefore('2024-05-01'), 1);
  assert.deepEqual(store.usage.get('2024-04-30', 'aaaa1111'), { used: 0, requests: 0 }, 'pruned');
  assert.deepEqual(store.usage.get('2024-05-01', 'aaaa1111'), { used: 2, requests: 2 }, 'kept');
});

test('readDays returns every day of the range, both ends included, by day then key', async (t) => {
  const store = tempStore(t);
  store.usage.put('2024-05-31', 'aaaa1111', 1, 1);
  store.usage.put('2024-06-01', 'aaaa1111', 2, 2);
  store.usage.put('2024-06-01', 'bbbb2222', 3, 3, 1, 0);
  store.usage.put('2024-06-03', 'aaaa1111', 4, 4);
  await store.usage.put('2024-06-04', 'aaaa1111', 5, 5);
  const days = store.usage.readDays('2024-06-01', '2024-06-03');
  assert.deepEqual(
    [...days.keys()],
    ['2024-06-01', '2024-06-03'],
    'days without entries are absent; the ends are included',
  );
  assert.deepEqual(
    [...days.get('2024-06-01')!],
    [
      ['aaaa1111', { used: 2, requests: 2 }],
      ['bbbb2222', { used: 3, requests: 3, rateLimited: 1, quotaExhausted: 0 }],
    ],
  );
  assert.deepEqual([...days.get('2024-06-03')!], [['aaaa1111', { used: 4, requests: 4 }]]);
});

test("a key's last use is stored apart from the days, replaced by a later put and never pruned with them", async (t) => {
  const store = tempStore(t);
  store.usage.put('2024-04-01', 'aaaa1111', 1, 1);
  store.usage.putLastUsed('aaaa1111', 1_000);
  await store.usage.putLastUsed('aaaa1111', 2_000);
  await store.usage.pruneBefore('2024-05-01');
  assert.deepEqual([...store.usage.readLastUsed()], [['aaaa1111', 2_000]]);
  assert.equal(store.usage.readDays('2024-04-01', '2024-04-01').size, 0, 'the day itself is pruned');
});
