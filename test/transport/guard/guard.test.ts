// The guard facade: key check, order of checks, header figures, quota, day rollover, internal keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretHash } from '../../../transport/guard/api-key.js';
import { Guard } from '../../../transport/guard/guard.js';
import { LimitsUnavailable, type SharedLimits } from '../../../transport/guard/shared-limits.js';
import type { KeyRecord, PlanName } from '../../../engine/plans.js';

const SECRET = 'S3cretS3cretS3cretS3cretS3cret00';

function record(id: string, plan: PlanName, over: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id,
    plan,
    org: 'Desk A',
    created: '2024-01-01T00:00:00.000Z',
    disabled: false,
    hash: secretHash(SECRET),
    ...over,
  };
}

function guardWith(...recs: KeyRecord[]): Guard {
  const g = new Guard('UTC');
  g.setKeys(recs);
  return g;
}

const T0 = Date.parse('2024-06-01T12:00:00Z');

test('a well-formed key with the right secret authenticates', () => {
  const g = guardWith(record('abcd1234', 'pro'));
  assert.equal(g.authenticate(`mdq_abcd1234_${SECRET}`)?.id, 'abcd1234');
  assert.equal(g.authenticate(`mdq_abcd1234_${SECRET}`)?.id, 'abcd1234', 'and again from the verified cache');
});

test('missing, malformed, unknown-id and wrong-secret keys fail', () => {
  const g = guardWith(record('abcd1234', 'pro'));
  for (const k of [
    undefined,
    '',
    'abcd1234',
    `mdq_abcd1234_${SECRET}x`,
    `mdq_zzzz9999_${SECRET}`,
    `mdq_abc_${SECRET}`,
    `mdq_abcd1234_short`,
    `mdq_abcd-234_${SECRET}`,
  ]) {
    assert.equal(g.authenticate(k), null, `${String(k)} is refused`);
  }
});

test('a key disabled after it was verified fails once the table is refreshed', () => {
  const g = guardWith(record('abcd1234', 'pro'));
  assert.ok(g.authenticate(`mdq_abcd1234_${SECRET}`));
  g.setKeys([record('abcd1234', 'pro', { disabled: true })]);
  assert.equal(g.authenticate(`mdq_abcd1234_${SECRET}`), null, 'disabled key is a 401');
});

test('a rotated-away secret fails and the new one works, keeping the key usage', () => {
  const g = guardWith(record('abcd1234', 'pro'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, true);
  const fresh = 'NewSecretNewSecretNewSecret12345';
  g.setKeys([record('abcd1234', 'pro', { hash: secretHash(fresh) })]);
  assert.equal(g.authenticate(`mdq_abcd1234_${SECRET}`), null, 'old key fails');
  const k2 = g.authenticate(`mdq_abcd1234_${fresh}`)!;
  assert.equal(g.quota(k2, T0).requests_today, 1, 'usage follows the id across rotation');
});

test('admit reports the rate and quota header figures', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  const v = g.admit(k, T0, true);
  // One token of 30 spent, refilled at 30 a minute (one every 2 s): full again in 2 s (X-RateLimit-Reset).
  assert.deepEqual(
    { ...v },
    {
      ok: true,
      code: null,
      retryAfter: 0,
      rateLimit: 30,
      rateRemaining: 29,
      rateReset: 2,
      quotaLimit: 5000,
      quotaRemaining: 5000,
    },
  );
  assert.equal(g.charge(k, 120, T0), 4880, 'X-Quota-Remaining after the charge');
});

test('the 31st request of a free key in one instant is rate_limited with Retry-After 2', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  for (let i = 0; i < 30; i++) assert.equal(g.admit(k, T0, true).ok, true, `request ${i + 1} served`);
  const v = g.admit(k, T0, true);
  assert.deepEqual(
    [v.ok, v.code, v.retryAfter, v.rateRemaining, v.rateReset],
    [false, 'rate_limited', 2, 0, 60],
    'an empty bucket is full again in a minute',
  );
});

test('requests_today counts refused requests too', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  for (let i = 0; i < 35; i++) g.admit(k, T0, true);
  assert.equal(g.quota(k, T0).requests_today, 35);
});

test('a request that starts with rows left is charged in full; the next one is quota_exhausted', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, true);
  g.charge(k, 4_990, T0);
  assert.equal(g.admit(k, T0 + 10_000, true).ok, true, '10 rows left: served');
  assert.equal(g.charge(k, 100, T0 + 10_000), 0, 'remaining is max(0, quota - used)');
  const q = g.quota(k, T0 + 10_000);
  assert.deepEqual([q.used, q.remaining], [5_090, 0], 'charged whole');
  const v = g.admit(k, T0 + 20_000, true);
  assert.deepEqual(
    [v.ok, v.code, v.retryAfter, v.quotaRemaining],
    [false, 'quota_exhausted', 12 * 3600 - 20, 0],
    'Retry-After runs to 00:00Z',
  );
});

test('an exhausted quota still lets /quota (no rows) through', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.charge(k, 5_000, T0);
  assert.equal(g.admit(k, T0, false).ok, true);
});

test('rate is checked before quota, and a quota refusal still takes a token', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.charge(k, 5_000, T0);
  for (let i = 0; i < 30; i++) assert.equal(g.admit(k, T0, true).code, 'quota_exhausted', `request ${i + 1}`);
  assert.equal(g.admit(k, T0, true).code, 'rate_limited', 'bucket emptied by quota refusals');
});

test('a new day in Asia/Shanghai starts from zero and moves reset_at', () => {
  const g = new Guard('Asia/Shanghai');
  g.setKeys([record('abcd1234', 'free')]);
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  const before = Date.parse('2024-06-01T15:59:59Z'); // 23:59:59 local
  g.admit(k, before, true);
  g.charge(k, 5_000, before);
  assert.equal(g.quota(k, before).reset_at, '2024-06-01T16:00:00.000Z');
  const after = before + 1_000;
  assert.equal(g.admit(k, after, true).ok, true, 'served on the new day');
  assert.deepEqual(
    (({ used, remaining, requests_today, reset_at }) => ({ used, remaining, requests_today, reset_at }))(
      g.quota(k, after),
    ),
    { used: 0, remaining: 5_000, requests_today: 1, reset_at: '2024-06-02T16:00:00.000Z' },
  );
});

test('internal keys are never limited and carry no rate or quota figures', () => {
  const g = guardWith(record('intern001', 'internal'));
  const k = g.authenticate(`mdq_intern001_${SECRET}`)!;
  for (let i = 0; i < 10_000; i++) {
    const v = g.admit(k, T0, true);
    if (!v.ok) assert.fail(`request ${i} refused with ${v.code}`);
    g.charge(k, 1_000, T0);
  }
  const v = g.admit(k, T0, true);
  assert.deepEqual(
    [v.rateLimit, v.rateRemaining, v.rateReset, v.quotaLimit, v.quotaRemaining],
    [null, null, null, null, null],
  );
  assert.equal(g.charge(k, 1, T0), null, 'no X-Quota-Remaining');
  const q = g.quota(k, T0);
  assert.deepEqual(
    [q.daily_quota, q.remaining, q.used, q.requests_today],
    [null, null, 10_000_001, 10_001],
    'counted, not limited',
  );
});

test('the /quota record carries the spec fields plus reset_at and the export allowance', () => {
  const g = guardWith(record('abcd1234', 'pro', { org: '' }));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, false);
  assert.deepEqual(g.quota(k, T0), {
    plan: 'pro',
    org_name: '',
    daily_quota: 200_000,
    used: 0,
    remaining: 200_000,
    requests_today: 1,
    reset_at: '2024-06-02T00:00:00.000Z',
    export_quota: 20_000_000,
    export_used: 0,
    export_remaining: 20_000_000,
  });
});

test('an export is charged to the export allowance (apart from the rows), whole or not at all; drained, seeded, and zeroed by a new day', () => {
  const g = guardWith(record('abcd1234', 'pro'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, true);
  g.charge(k, 40, T0);
  assert.deepEqual(g.chargeExport(k, 19_999_990, T0), { fits: true, remaining: 10, retryAfter: 0 });
  const refused = g.chargeExport(k, 11, T0 + 1000);
  assert.deepEqual([refused.fits, refused.remaining], [false, 10], 'eleven rows do not fit in ten: nothing charged');
  assert.ok(refused.retryAfter > 0);
  assert.deepEqual(g.chargeExport(k, 10, T0 + 2000), { fits: true, remaining: 0, retryAfter: 0 }, 'ten do');
  const q = g.quota(k, T0 + 2000);
  assert.deepEqual([q.used, q.export_used, q.export_remaining], [40, 20_000_000, 0]);
  const seen: unknown[][] = [];
  g.drainDirty((...a) => seen.push(a));
  assert.deepEqual(
    seen,
    [['abcd1234', '2024-06-01', 40, 1, 0, 1, T0, 20_000_000]],
    'the refusal counted as a quota one',
  );
  const h = guardWith(record('abcd1234', 'pro'));
  h.seedUsage('abcd1234', { used: 40, requests: 1, rateLimited: 0, quotaExhausted: 1, exported: 19_999_000 }, T0);
  assert.equal(h.quota(h.authenticate(`mdq_abcd1234_${SECRET}`)!, T0).export_remaining, 1_000, 'seeded from storage');
  assert.equal(g.quota(k, T0 + 86_400_000).export_remaining, 20_000_000, 'a new day starts from zero');
});

test('drainDirty hands over each changed key once with its day', () => {
  const g = guardWith(record('abcd1234', 'pro'), record('efgh5678', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, true);
  g.charge(k, 7, T0);
  const seen: unknown[] = [];
  g.drainDirty((...a) => seen.push(a));
  assert.deepEqual(seen, [['abcd1234', '2024-06-01', 7, 1, 0, 0, T0, 0]]);
  assert.equal(
    g.drainDirty(() => assert.fail('nothing changed')),
    0,
    'second drain is empty',
  );
});

test("every admitted or refused request stamps the key's last use; an earlier instant never moves it back", () => {
  const g = guardWith(record('abcd1234', 'free'), record('efgh5678', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  assert.equal(k.lastUsedMs, 0, 'none before the first request');
  g.admit(k, T0, true);
  assert.equal(k.lastUsedMs, T0);
  for (let i = 0; i < 40; i++) g.admit(k, T0 + 1_000, true); // the last ten are refused 429
  assert.equal(k.lastUsedMs, T0 + 1_000, 'a refused request is an authenticated one too');
  g.admit(k, T0 + 500, true); // another thread's request, taken a moment late
  assert.equal(k.lastUsedMs, T0 + 1_000);
  assert.equal(g.authenticate(`mdq_efgh5678_${SECRET}`)!.lastUsedMs, 0, 'another key is untouched');
});

test("a day that ends before a flush is drained with its last counts, then the new day's", () => {
  const g = guardWith(record('abcd1234', 'pro'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  const lateAt = Date.parse('2024-06-01T23:59:59.800Z');
  const earlyAt = Date.parse('2024-06-02T00:00:00.100Z');
  g.admit(k, T0, true);
  g.charge(k, 10, T0);
  g.drainDirty(() => {}); // flushed at noon
  g.admit(k, lateAt, true);
  g.charge(k, 5, lateAt); // not flushed before midnight
  g.admit(k, earlyAt, true);
  g.charge(k, 3, earlyAt);
  const seen: unknown[] = [];
  assert.equal(
    g.drainDirty((...a) => seen.push(a)),
    1,
    'one key',
  );
  assert.deepEqual(seen, [
    ['abcd1234', '2024-06-01', 15, 2, 0, 0, earlyAt, 0],
    ['abcd1234', '2024-06-02', 3, 1, 0, 0, earlyAt, 0],
  ]);
  assert.equal(
    g.drainDirty(() => assert.fail('nothing changed')),
    0,
    'the closing day is drained once',
  );
});

test('a day that ends after its last counts were flushed is not drained again', () => {
  const g = guardWith(record('abcd1234', 'pro'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, true);
  g.drainDirty(() => {});
  const tomorrow = T0 + 86_400_000;
  g.admit(k, tomorrow, true);
  const seen: unknown[] = [];
  g.drainDirty((...a) => seen.push(a));
  assert.deepEqual(seen, [['abcd1234', '2024-06-02', 0, 1, 0, 0, tomorrow, 0]]);
});

test('seeded usage continues the day from stored counts', () => {
  const g = guardWith(record('abcd1234', 'free'));
  g.seedUsage('abcd1234', { used: 4_000, requests: 12 }, T0);
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  g.admit(k, T0, true);
  assert.equal(g.charge(k, 500, T0), 500);
  assert.equal(g.quota(k, T0).requests_today, 13);
});

test('a table refresh keeps the bucket of a key that stays', () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  for (let i = 0; i < 30; i++) g.admit(k, T0, true);
  g.setKeys([record('abcd1234', 'free', { org: 'Desk B' })]);
  assert.equal(
    g.admit(g.authenticate(`mdq_abcd1234_${SECRET}`)!, T0, true).code,
    'rate_limited',
    'refresh grants no tokens',
  );
});

test("with shared limits (Redis) the last use is this instance's and the day's counts the store's answer; an unreachable store still stamps the use", async () => {
  let down = false;
  const shared: SharedLimits = {
    admit: async () => {
      if (down) throw new LimitsUnavailable('test');
      return { refused: 0, units: 0, used: 120, requests: 9, rateLimited: 0, quotaExhausted: 0 }; // other instances' requests included
    },
    charge: async (_id, _day, rows) => 120 + rows,
    refund: async () => {},
    push: async (_id, _day, rows) => 120 + rows,
  };
  const g = new Guard('UTC', shared);
  g.setKeys([record('abcd1234', 'pro')]);
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  await g.admitShared(k, T0, true);
  await g.chargeShared(k, 5, T0);
  const seen: unknown[] = [];
  g.drainDirty((...a) => seen.push(a));
  assert.deepEqual(seen, [['abcd1234', '2024-06-01', 125, 9, 0, 0, T0, 0]]);
  down = true;
  await assert.rejects(g.admitShared(k, T0 + 5_000, true), LimitsUnavailable);
  assert.equal(k.lastUsedMs, T0 + 5_000, 'the key was authenticated');
  seen.length = 0;
  g.drainDirty((...a) => seen.push(a));
  assert.deepEqual(
    seen,
    [['abcd1234', '2024-06-01', 125, 9, 0, 0, T0 + 5_000, 0]],
    'and that use reaches the next flush',
  );
});

test("admit with a kept answer's rows charges them in the same step, only when admitted; the verdict's quota is before them", () => {
  const g = guardWith(record('abcd1234', 'free'));
  const k = g.authenticate(`mdq_abcd1234_${SECRET}`)!;
  const quota = g.admit(k, T0, true).quotaLimit!;
  const v = g.admit(k, T0, true, 40);
  assert.deepEqual([v.ok, v.quotaRemaining], [true, quota], 'what was left before the 40 rows');
  assert.equal(g.quota(k, T0).used, 40, 'the 40 rows charged');
  g.charge(k, quota - 40, T0); // the day's rows all used
  const refused = g.admit(k, T0, true, 40);
  assert.deepEqual([refused.ok, refused.code], [false, 'quota_exhausted']);
  assert.equal(g.quota(k, T0).used, quota, 'a refused request charges nothing');
});
