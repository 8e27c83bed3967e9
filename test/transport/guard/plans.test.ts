// The guard over a table of plans other than the built-in one (PLANS_FILE): each key's figures
// are its plan's in that table; a key whose plan is not in force is refused and reported.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILT_IN_PLANS, DEFAULT_PLANS, type KeyRecord, Plans } from '../../../engine/plans.js';
import { secretHash } from '../../../transport/guard/api-key.js';
import { Guard, UnknownPlans } from '../../../transport/guard/guard.js';
import { RequestMetrics } from '../../../transport/metrics/request-metrics.js';

const SECRET = 'S3cretS3cretS3cretS3cretS3cret00';
const T0 = Date.parse('2024-06-01T12:00:00Z');
const record = (id: string, plan: string): KeyRecord => ({
  id,
  plan,
  org: 'Desk',
  created: '2024-01-01T00:00:00.000Z',
  disabled: false,
  hash: secretHash(SECRET),
});
const keyOf = (id: string): string => `mdq_${id}_${SECRET}`;

/** free changed (7 a minute), gold added (3 a minute, 20 rows a day), burst added (no quota). */
const PLANS = new Plans(
  [
    ...DEFAULT_PLANS.list.filter((p) => p.name !== 'free'),
    {
      name: 'free',
      rpm: 7,
      dailyQuota: 100,
      batch: 1,
      rowsPerCall: 4,
      exportRows: 0,
      connections: 1,
      subscriptions: 5,
    },
    { name: 'gold', rpm: 3, dailyQuota: 20, batch: 2, rowsPerCall: 3, exportRows: 0, connections: 1, subscriptions: 5 },
    {
      name: 'burst',
      rpm: 1000,
      dailyQuota: null,
      batch: 50,
      rowsPerCall: 500,
      exportRows: 0,
      connections: 1,
      subscriptions: 5,
    },
  ],
  'plans.json',
);

test("a key of an added plan has that plan's figures: the 4th request at 3 a minute is refused, the quota is 20", () => {
  const g = new Guard('UTC', null, null, { plans: PLANS });
  g.setKeys([record('gold0001', 'gold')]);
  const k = g.authenticate(keyOf('gold0001'))!;
  assert.equal(k.plan, PLANS.get('gold'), 'the plan object of the table, resolved once');
  for (let i = 1; i <= 3; i++)
    assert.deepEqual(
      (({ ok, rateLimit, rateRemaining, quotaLimit }) => [ok, rateLimit, rateRemaining, quotaLimit])(
        g.admit(k, T0, true),
      ),
      [true, 3, 3 - i, 20],
      `request ${i}`,
    );
  const v = g.admit(k, T0, true);
  assert.deepEqual([v.ok, v.code, v.retryAfter], [false, 'rate_limited', 20], 'a token every 20 s');
  assert.equal(g.quota(k, T0).daily_quota, 20);
});

test("a built-in plan the table changes has the table's figures", () => {
  const g = new Guard('UTC', null, null, { plans: PLANS });
  g.setKeys([record('free0001', 'free'), record('pro00001', 'pro')]);
  assert.equal(g.admit(g.authenticate(keyOf('free0001'))!, T0, true).rateLimit, 7);
  assert.equal(
    g.admit(g.authenticate(keyOf('pro00001'))!, T0, true).rateLimit,
    BUILT_IN_PLANS.pro.rpm,
    'pro as the spec has it',
  );
});

test('a plan without a quota sends no quota figures', () => {
  const g = new Guard('UTC', null, null, { plans: PLANS });
  g.setKeys([record('burst001', 'burst')]);
  const v = g.admit(g.authenticate(keyOf('burst001'))!, T0, true);
  assert.deepEqual([v.rateLimit, v.quotaLimit, v.quotaRemaining], [1000, null, null]);
});

test('moved to an added plan of a smaller rate, a key keeps at most that many tokens', () => {
  const g = new Guard('UTC', null, null, { plans: PLANS });
  g.setKeys([record('move0001', 'pro')]);
  g.setKeys([record('move0001', 'gold')]);
  const v = g.admit(g.authenticate(keyOf('move0001'))!, T0, true);
  assert.deepEqual([v.rateLimit, v.rateRemaining], [3, 2], 'a full pro bucket clamped to 3, one taken');
});

test('a key whose plan is not in force is refused; the rest of the table applies and the owner reports the key', () => {
  const g = new Guard('UTC', null, null, { plans: PLANS });
  g.setKeys([record('gold0001', 'gold')]);
  assert.ok(g.authenticate(keyOf('gold0001')));
  const table = [record('gold0001', 'platinum'), record('pro00001', 'pro'), record('lost0001', 'diamond')];
  assert.throws(
    () => g.setKeys(table),
    (error: unknown) => {
      assert.ok(error instanceof UnknownPlans);
      assert.deepEqual(
        error.keys.map((k) => [k.id, k.plan]),
        [
          ['gold0001', 'platinum'],
          ['lost0001', 'diamond'],
        ],
      );
      assert.match(
        error.message,
        /^key gold0001 has plan 'platinum', which is not in force \(PLANS_FILE plans\.json\).*\(and 1 more key\)$/,
      );
      return true;
    },
  );
  assert.equal(g.authenticate(keyOf('gold0001')), null, 'moved to a plan not in force: refused');
  assert.equal(g.authenticate(keyOf('lost0001')), null);
  assert.ok(g.authenticate(keyOf('pro00001')), 'the rest of the table applied');
});

test("another serving thread's guard leaves such a key out silently (the owner reports it)", () => {
  const owner = new Guard('UTC', null, null, { plans: PLANS });
  owner.setKeys([record('gold0001', 'gold')]);
  const other = new Guard('UTC', null, owner.slots.buffer, { plans: PLANS });
  other.setKeys([record('gold0001', 'diamond')], owner.assignments());
  assert.equal(other.authenticate(keyOf('gold0001')), null);
});

test('without a table, a guard has the built-in plans: a key of another plan is refused', () => {
  const g = new Guard('UTC');
  assert.throws(() => g.setKeys([record('gold0001', 'gold')]), UnknownPlans);
  assert.equal(g.authenticate(keyOf('gold0001')), null);
});

test("request figures are labelled with the table's plans, by index", () => {
  const m = new RequestMetrics(['/a'], PLANS.names);
  m.record(0, 200, PLANS.get('gold')!, 3, 0.001);
  m.record(0, 200, PLANS.get('burst')!, 5, 0.001);
  m.record(0, 200, PLANS.get('free')!, 1, 0.001);
  m.record(0, 401, null, 0, 0.001);
  const sum = m.combined([m.storage]); // its own storage again, as another thread's would be read
  assert.deepEqual(
    sum.cells().map((c) => [c.plan, c.status, c.requests, c.rows]),
    [
      ['free', 200, 2, 2],
      ['gold', 200, 2, 6],
      ['burst', 200, 2, 10],
      ['none', 401, 2, 0],
    ],
  );
});
