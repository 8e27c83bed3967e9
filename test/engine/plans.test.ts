// The plan table: the spec's Limits figures and the internal plan (no rate, no quota, batch 50, 500 rows per call) by default, and tables of other plans.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILT_IN_PLANS, DEFAULT_PLANS, Plans, wellFormedPlanName } from '../../engine/plans.js';

const figures = (plans: Plans) => plans.list.map((p) => [p.name, p.dailyQuota, p.rpm, p.batch, p.rowsPerCall]);

test('the default plans carry the figures of the Limits table, then internal', () => {
  assert.deepEqual(figures(DEFAULT_PLANS), [
    ['free', 5_000, 30, 5, 100],
    ['pro', 200_000, 120, 50, 500],
    ['enterprise', 2_000_000, 600, 50, 500],
    ['internal', null, null, 50, 500],
  ]);
  assert.equal(DEFAULT_PLANS.source, null, 'read from no file');
});

test('only plans in force are found by name', () => {
  assert.equal(DEFAULT_PLANS.has('pro'), true);
  assert.equal(DEFAULT_PLANS.has('gold'), false, 'unknown name');
  assert.equal(DEFAULT_PLANS.has('toString'), false, 'inherited property is not a plan');
  assert.equal(DEFAULT_PLANS.get('gold'), undefined);
});

test('a table puts the built-in plans first (with their given figures), then the others in the order given, each with its index', () => {
  const plans = new Plans(
    [
      {
        name: 'gold',
        rpm: 5,
        dailyQuota: 20,
        batch: 2,
        rowsPerCall: 3,
        exportRows: 0,
        connections: 1,
        subscriptions: 5,
      },
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
      { name: 'pro', ...BUILT_IN_PLANS.pro },
      { name: 'enterprise', ...BUILT_IN_PLANS.enterprise },
      { name: 'internal', ...BUILT_IN_PLANS.internal },
      {
        name: 'burst',
        rpm: 3,
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
  assert.deepEqual(plans.names, ['free', 'pro', 'enterprise', 'internal', 'gold', 'burst']);
  assert.deepEqual(
    plans.list.map((p) => p.index),
    [0, 1, 2, 3, 4, 5],
  );
  assert.deepEqual(figures(plans)[0], ['free', 100, 7, 1, 4], 'free with the figures given');
  assert.equal(plans.source, 'plans.json');
});

test('the answer key names the plan and the figures that shape answers', () => {
  assert.equal(DEFAULT_PLANS.builtIn('free').answerKey, 'free/5/100');
  const changed = new Plans(DEFAULT_PLANS.list.map((p) => (p.name === 'free' ? { ...p, rowsPerCall: 200 } : p)));
  assert.notEqual(
    changed.builtIn('free').answerKey,
    DEFAULT_PLANS.builtIn('free').answerKey,
    'other rows per call: another key',
  );
});

test('a table without a built-in plan, or with a plan twice, is refused', () => {
  assert.throws(() => new Plans(DEFAULT_PLANS.list.filter((p) => p.name !== 'free')), /free is missing/);
  assert.throws(
    () =>
      new Plans([
        ...DEFAULT_PLANS.list,
        { name: 'gold', ...BUILT_IN_PLANS.pro },
        { name: 'gold', ...BUILT_IN_PLANS.pro },
      ]),
    /twice/,
  );
  assert.throws(() => new Plans([...DEFAULT_PLANS.list, { name: 'free', ...BUILT_IN_PLANS.pro }]), /twice/);
});

test('a posted table is the same table', () => {
  const plans = new Plans(
    [
      ...DEFAULT_PLANS.list,
      {
        name: 'gold',
        rpm: 5,
        dailyQuota: 20,
        batch: 2,
        rowsPerCall: 3,
        exportRows: 0,
        connections: 1,
        subscriptions: 5,
      },
    ],
    '/etc/mdq/plans.json',
  );
  const copy = Plans.fromMessage(structuredClone(plans.toMessage()));
  assert.deepEqual(copy.list, plans.list);
  assert.equal(copy.source, plans.source);
});

test('plan names: a lower-case letter, then up to 31 of a-z, 0-9, _ and -', () => {
  for (const ok of ['free', 'gold', 'a', 'tier-2_b', 'a'.repeat(32)]) assert.equal(wellFormedPlanName(ok), true, ok);
  for (const bad of ['', 'Gold', '2tier', '-a', 'a b', 'a.b', 'a'.repeat(33), 'é'])
    assert.equal(wellFormedPlanName(bad), false, JSON.stringify(bad));
});
