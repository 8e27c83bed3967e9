// Changing a key's plan from the dashboard: the new limits apply at once, today's rows and requests are kept.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type AdminServer, idOf, type Operator, startAdminServer } from './admin-server.js';

let s: AdminServer;
let op: Operator;
let id: string;
const KLINES = '/api/v1/ashare/klines/sh600001?limit=5';

before(async () => {
  s = await startAdminServer();
  op = await s.signIn();
  id = idOf(s.keys.pro);
});
after(() => s.close());

const quota = async (key: string) => (await s.call('/api/v1/quota', { headers: { 'x-api-key': key } })).body;

test("a new plan keeps today's rows and requests, and its limits apply at once", async () => {
  for (let i = 0; i < 3; i++)
    assert.equal((await s.call(KLINES, { headers: { 'x-api-key': s.keys.pro } })).status, 200);
  const before = await quota(s.keys.pro);
  assert.equal(before.plan, 'pro');
  assert.ok(before.used > 0, 'rows were charged');

  const a = await s.write(op, `/admin/api/keys/${id}/plan`, { plan: 'free' });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.previous_plan, 'pro');
  assert.equal(a.body.record.plan, 'free');
  assert.deepEqual(
    a.body.usage_today,
    { rows: before.used, requests: before.requests_today },
    'the answer shows the counts carried over',
  );

  const now = await quota(s.keys.pro);
  assert.equal(now.plan, 'free', 'the guard has the new plan without waiting for the sync');
  assert.equal(now.used, before.used, 'rows kept');
  assert.equal(now.requests_today, before.requests_today + 1, 'requests kept (plus this /quota call)');
  assert.equal(now.daily_quota, 5_000);
  assert.equal(now.remaining, 5_000 - before.used, "the new quota counts today's rows");
  const k = await s.call(KLINES, { headers: { 'x-api-key': s.keys.pro } });
  assert.equal(k.headers['x-ratelimit-limit'], '30', "the free plan's rate");
  assert.ok(Number(k.headers['x-ratelimit-remaining']) <= 29, 'the bucket holds no more than the free plan allows');
});

test('the keys and usage pages show the new plan with the same counts', async () => {
  const keys = await s.call('/admin/api/keys', { cookie: op.cookie });
  assert.equal(keys.body.keys.find((k: any) => k.id === id).plan, 'free');
  const q = await quota(s.keys.pro);
  const usage = await s.call('/admin/api/usage', { cookie: op.cookie });
  const row = usage.body.keys.find((k: any) => k.id === id);
  assert.deepEqual([row.plan, row.rows, row.requests, row.daily_quota], ['free', q.used, q.requests_today, 5_000]);
});

test('back to pro: the counts still stay', async () => {
  const before = await quota(s.keys.pro);
  const a = await s.write(op, `/admin/api/keys/${id}/plan`, { plan: 'pro' });
  assert.deepEqual([a.body.previous_plan, a.body.record.plan], ['free', 'pro']);
  const now = await quota(s.keys.pro);
  assert.deepEqual([now.plan, now.used, now.requests_today], ['pro', before.used, before.requests_today + 1]);
});

test('an unknown plan is 400 invalid_parameter (param plan) and changes nothing', async () => {
  for (const body of [{ plan: 'gold' }, {}, { plan: 3 }]) {
    const a = await s.write(op, `/admin/api/keys/${id}/plan`, body);
    assert.equal(a.status, 400, JSON.stringify(body));
    assert.equal(a.body.code, 'invalid_parameter');
    assert.equal(a.body.param, 'plan');
  }
  assert.equal(s.store.keys.get(id)!.plan, 'pro');
});

test('the same plan again is a no-op answer, not an error', async () => {
  const a = await s.write(op, `/admin/api/keys/${id}/plan`, { plan: 'pro' });
  assert.equal(a.status, 200);
  assert.equal(a.body.record.plan, 'pro');
});
