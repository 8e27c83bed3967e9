// Key slots shared by serving threads: several threads admitting one key at once take exactly
// the bucket's tokens, count every request and charge every row (Atomics spin locks).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { KeyRecord } from '../../../engine/plans.js';
import { secretHash } from '../../../transport/guard/api-key.js';
import { Guard, KeySlots } from '../../../transport/guard/guard.js';
import { KeySlotsFull } from '../../../transport/guard/key-slots.js';

const SECRET = 'S3cretS3cretS3cretS3cretS3cret00';
const NOW = Date.parse('2026-06-01T12:00:00Z');
const WORKER = new URL('../../helpers/admit-worker.js', import.meta.url);
const record = (id: string, plan: KeyRecord['plan']): KeyRecord => ({
  id,
  plan,
  org: 'Desk',
  created: '2026-01-01T00:00:00.000Z',
  disabled: false,
  hash: secretHash(SECRET),
});

test('4 threads × 20,000 admits of one enterprise key at one instant: exactly 600 admitted, 80,000 requests, 600 rows', async () => {
  const owner = new Guard('UTC');
  const keys = [record('other0001', 'free'), record('enterpr01', 'enterprise')];
  owner.setKeys(keys);
  const data = {
    slots: owner.slots.buffer,
    keys,
    assignments: owner.assignments(),
    key: `mdq_enterpr01_${SECRET}`,
    attempts: 20_000,
    nowMs: NOW,
  };
  const admitted = await Promise.all(
    Array.from(
      { length: 4 },
      () =>
        new Promise<number>((resolve, reject) =>
          new Worker(WORKER, { workerData: data }).once('message', resolve).once('error', reject),
        ),
    ),
  );
  assert.equal(
    admitted.reduce((a, b) => a + b, 0),
    600,
    `per thread: ${admitted.join(', ')}`,
  );
  const q = owner.quota(owner.authenticate(`mdq_enterpr01_${SECRET}`)!, NOW);
  assert.deepEqual([q.requests_today, q.used], [80_000, 600]);
  const drained: [string, number, number, number, number][] = [];
  owner.drainDirty((id, _day, used, requests, rateLimited, _quota, lastUsedMs) =>
    drained.push([id, used, requests, rateLimited, lastUsedMs]),
  );
  assert.deepEqual(
    drained,
    [['enterpr01', 600, 80_000, 79_400, NOW]],
    'the owner drains what the other threads counted, and their last use',
  );
  assert.equal(
    owner.drainDirty(() => {}),
    0,
    'and only once',
  );
});

test("a serving thread's guard takes the owner's slots: a key the owner has not assigned yet is unknown there until the next table", () => {
  const owner = new Guard('UTC');
  owner.setKeys([record('alpha0001', 'pro')]);
  const other = new Guard('UTC', null, owner.slots.buffer);
  other.setKeys([record('alpha0001', 'pro'), record('beta00001', 'pro')], owner.assignments());
  assert.ok(other.authenticate(`mdq_alpha0001_${SECRET}`));
  assert.equal(other.authenticate(`mdq_beta00001_${SECRET}`), null);
  other.admit(other.authenticate(`mdq_alpha0001_${SECRET}`)!, NOW, false);
  assert.equal(owner.quota(owner.authenticate(`mdq_alpha0001_${SECRET}`)!, NOW).requests_today, 1, 'the same slot');
});

test('slots run out with a clear error', () => {
  const slots = KeySlots.create(2);
  slots.assign('a');
  slots.assign('b');
  assert.equal(slots.assign('a'), 0, 'a known id keeps its slot');
  assert.throws(() => slots.assign('c'), KeySlotsFull);
});

test('a key table larger than the slots: the keys that fit are served, a disabled one is no longer verified, and the overflow is reported', () => {
  const g = new Guard('UTC', null, null, { capacity: 2 });
  g.setKeys([record('first0001', 'pro'), record('second001', 'pro')]);
  assert.ok(g.authenticate(`mdq_first0001_${SECRET}`));
  const table = [
    { ...record('first0001', 'pro'), disabled: true },
    record('second001', 'pro'),
    record('third0001', 'pro'),
  ];
  assert.throws(() => g.setKeys(table), KeySlotsFull);
  assert.equal(g.authenticate(`mdq_first0001_${SECRET}`), null, 'the disable still applied');
  assert.ok(g.authenticate(`mdq_second001_${SECRET}`));
  assert.equal(g.authenticate(`mdq_third0001_${SECRET}`), null, 'no slot: refused, never served without limits');
});
