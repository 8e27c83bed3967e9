// The usage page: 429 refusals per key (rate and quota, stored with the day's counts), requests by route, the chart from the server's start.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_PLANS } from '../../../engine/plans.js';
import { StateSync } from '../../../loaders/state/state-sync.js';
import { Guard } from '../../../transport/guard/guard.js';
import { RequestMetrics } from '../../../transport/metrics/request-metrics.js';
import { type AdminServer, idOf, type Operator, startAdminServer, startSignedIn } from './admin-server.js';

const KLINES = '/api/v1/ashare/klines/sh600001?limit=5';

describe('429s per key', () => {
  let s: AdminServer;
  let op: Operator;
  let id: string;
  const seen = { rate: 0, quota: 0, requests: 0 };
  before(async () => {
    s = await startAdminServer();
    op = await s.signIn();
    id = idOf(s.keys.free);
  });
  after(() => s.close());

  const usageRow = async () =>
    (await s.call('/admin/api/usage', { cookie: op.cookie })).body.keys.find((k: any) => k.id === id);

  test('each rate_limited answer is counted for its key, and only those', async () => {
    for (let i = 0; i < 34; i++) {
      const a = await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.free } }); // the clock stands still: no refill
      seen.requests++;
      if (a.status === 429) {
        assert.equal(a.body.code, 'rate_limited');
        seen.rate++;
      }
    }
    assert.equal(seen.rate, 4, 'a free bucket holds 30');
    const row = await usageRow();
    assert.deepEqual([row.rate_limited, row.quota_exhausted, row.refused_429, row.requests], [4, 0, 4, 34]);
    const pro = (await s.call('/admin/api/usage', { cookie: op.cookie })).body.keys.find(
      (k: any) => k.id === idOf(s.keys.pro),
    );
    assert.equal(pro.refused_429, 0, 'another key has none');
  });

  test('each quota_exhausted answer is counted apart from the rate ones', async () => {
    s.clock.ms += 60_000; // a full bucket again
    s.guard.seedUsage(
      id,
      { used: 5_000, requests: seen.requests, rateLimited: seen.rate, quotaExhausted: 0 },
      s.clock.ms,
    ); // the free plan's rows for the day are used up
    const a = await s.call(KLINES, { headers: { 'x-api-key': s.keys.free } });
    assert.equal(a.status, 429);
    assert.equal(a.body.code, 'quota_exhausted');
    const row = await usageRow();
    assert.deepEqual([row.rate_limited, row.quota_exhausted, row.refused_429], [4, 1, 5]);
  });

  test('the counts are stored with the day and seed a restarted guard', async () => {
    const day = s.guard.dayLabel(s.clock.ms);
    const stored = s.store.usage.readDay(day).get(id)!;
    assert.deepEqual([stored.rateLimited, stored.quotaExhausted], [4, 1]);
    const fresh = new Guard('UTC');
    const sync = StateSync.start(s.store, fresh, { now: () => s.clock.ms });
    try {
      const k = fresh.authenticate(s.keys.free)!;
      assert.deepEqual([k.rateLimited, k.quotaExhausted, k.used], [4, 1, 5_000]);
    } finally {
      await sync.close();
    }
  });

  test('a key without refusals keeps the two-number entry of before', async () => {
    await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.internal } });
    await s.call('/admin/api/usage', { cookie: op.cookie }); // flushes the counts to the store
    const stored = s.store.usage.readDay(s.guard.dayLabel(s.clock.ms)).get(idOf(s.keys.internal));
    assert.deepEqual(stored, { used: 0, requests: 1 });
  });
});

describe('exports on the usage page', () => {
  let s: AdminServer;
  let op: Operator;
  before(async () => {
    s = await startAdminServer();
    op = await s.signIn();
  });
  after(() => s.close());

  test("a key's rows exported today and its export allowance left are shown beside its rows; a plan without exports says so", async () => {
    const res = await s.call('/api/v1/hkstock/export?format=ndjson', { headers: { 'x-api-key': s.keys.pro } });
    assert.equal(res.status, 200);
    const rows = res.text.trimEnd().split('\n').length;
    const keys = (await s.call('/admin/api/usage', { cookie: op.cookie })).body.keys;
    const pro = keys.find((k: any) => k.id === idOf(s.keys.pro));
    assert.deepEqual(
      [pro.rows, pro.exported, pro.export_quota, pro.export_remaining],
      [0, rows, 20_000_000, 20_000_000 - rows],
    );
    const free = keys.find((k: any) => k.id === idOf(s.keys.free));
    assert.deepEqual([free.exported, free.export_quota, free.export_remaining], [0, 0, 0]);
    const internal = keys.find((k: any) => k.id === idOf(s.keys.internal));
    assert.deepEqual([internal.export_quota, internal.export_remaining], [null, null]);
    const plans = (await s.call('/admin/api/keys', { cookie: op.cookie })).body.plans;
    assert.deepEqual(
      plans.map((p: any) => [p.name, p.export_rows]),
      [
        ['free', 0],
        ['pro', 20_000_000],
        ['enterprise', 200_000_000],
        ['internal', null],
      ],
    );
  });
});

describe('requests by route', () => {
  let s: AdminServer;
  let op: Operator;
  const metrics = new RequestMetrics(['/api/v1/quota', '/api/v1/:market/klines/:symbol', '/healthz']);
  const plan = (name: string) => DEFAULT_PLANS.get(name)!;
  before(async () => ({ s, op } = await startSignedIn({ routes: () => metrics.cells() })));
  after(() => s.close());

  test('summed over plans per route, statuses in classes, 429s apart, most requested first', async () => {
    const [quota, klines, health] = [0, 1, 2];
    for (let i = 0; i < 3; i++) metrics.record(klines, 200, plan('pro'), 5, 0.001);
    metrics.record(klines, 200, plan('free'), 5, 0.001);
    metrics.record(klines, 429, plan('free'), 0, 0.001);
    metrics.record(klines, 400, plan('pro'), 0, 0.001);
    metrics.record(klines, 500, plan('pro'), 0, 0.001);
    metrics.record(quota, 200, plan('free'), 0, 0.001);
    metrics.record(health, 200, null, 0, 0.001);
    metrics.record(health, 200, null, 0, 0.001);
    const a = await s.call('/admin/api/usage', { cookie: op.cookie });
    assert.deepEqual(
      a.body.by_route.map((r: any) => r.route),
      ['/api/v1/:market/klines/:symbol', '/healthz', '/api/v1/quota'],
    );
    assert.deepEqual(a.body.by_route[0], {
      route: '/api/v1/:market/klines/:symbol',
      requests: 7,
      rows: 20,
      ok: 4,
      client_errors: 2,
      too_many: 1,
      server_errors: 1,
      by_plan: { pro: 5, free: 2 },
    });
    assert.deepEqual(a.body.by_route[1].by_plan, { none: 2 });
  });

  test('without the server counts wired in, by_route is null (the page says so)', async () => {
    const bare = await startAdminServer();
    try {
      const o = await bare.signIn();
      assert.equal((await bare.call('/admin/api/usage', { cookie: o.cookie })).body.by_route, null);
    } finally {
      await bare.close();
    }
  });
});

describe('the requests chart', () => {
  let s: AdminServer;
  let op: Operator;
  before(async () => ({ s, op } = await startSignedIn()));
  after(() => s.close());

  test('starts at the minute the server started, not an hour before it', async () => {
    const startMinute = Math.floor(s.clock.ms / 60_000) * 60;
    s.clock.ms += 125_000;
    const minutes = Math.floor(s.clock.ms / 60_000) - startMinute / 60 + 1; // 3, or 4 when the start was late in its minute
    await s.call(KLINES, { headers: { 'x-api-key': s.keys.pro } });
    const a = await s.call('/admin/api/usage', { cookie: op.cookie });
    const ts = a.body.per_minute.map((p: any) => p.t);
    assert.equal(ts[0], startMinute, 'the first point is the start minute');
    assert.equal(ts.length, minutes, 'start minute, those in between, the current one');
    assert.equal(a.body.per_minute.at(-1).requests, 1);
    assert.equal(Date.parse(a.body.started), s.clock.ms - 125_000);
  });
});
