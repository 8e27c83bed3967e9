// The plan table holds the spec's Limits figures and the internal plan of decisions.md §3.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPlanName, PLAN_NAMES, PLANS } from '../../engine/plans.js';

test('plans carry the figures of the Limits table', () => {
  assert.deepEqual(
    PLAN_NAMES.map((n) => [n, PLANS[n].dailyQuota, PLANS[n].rpm, PLANS[n].batch, PLANS[n].rowsPerCall]),
    [
      ['free', 5_000, 30, 5, 100],
      ['pro', 200_000, 120, 50, 500],
      ['enterprise', 2_000_000, 600, 50, 500],
      ['internal', null, null, 50, 500],
    ],
  );
});

test('only the four plan names are plan names', () => {
  assert.equal(isPlanName('pro'), true);
  assert.equal(isPlanName('gold'), false, 'unknown name');
  assert.equal(isPlanName('toString'), false, 'inherited property is not a plan');
});
