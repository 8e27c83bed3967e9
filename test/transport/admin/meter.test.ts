// The in-process request meter: per-minute ring, requests a second, latency percentiles, and its hook in the server.

import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';
import { BUCKETS, bucketMs, bucketOf, quantileMs } from '../../../transport/admin/latency-buckets.js';
import { RequestMeter } from '../../../transport/admin/meter.js';
import { idOf, startAdminServer } from './admin-server.js';

const T0 = Date.UTC(2025, 5, 30, 12, 0, 0);

test('a bucket holds its value within ±10 %', () => {
  for (const ms of [0.003, 0.05, 0.7, 1, 4.2, 38, 950, 12_000]) {
    const mid = bucketMs(bucketOf(ms));
    assert.ok(Math.abs(mid / ms - 1) < 0.1, `${ms} ms → ${mid}`);
  }
  assert.equal(bucketOf(0), 0);
  assert.equal(bucketOf(Number.NaN), 0);
  assert.equal(bucketOf(1e12), BUCKETS - 1);
});

test('p50 and p99 of 100 known latencies', () => {
  const counts = new Float64Array(BUCKETS);
  for (let i = 1; i <= 100; i++) counts[bucketOf(i === 100 ? 500 : i < 99 ? 1 : 20)]++;
  assert.ok(Math.abs(quantileMs(counts, 0.5)! - 1) < 0.1);
  assert.ok(Math.abs(quantileMs(counts, 0.99)! - 20) < 2);
  assert.equal(quantileMs(new Float64Array(BUCKETS), 0.5), null);
});

test('requests per minute: the last hour, oldest first; a slot from an hour ago does not count again', () => {
  const m = new RequestMeter(() => T0 - 3_600_000); // started more than an hour before
  m.record(T0, 1, 200);
  m.record(T0 + 1000, 1, 429);
  m.record(T0 + 61_000, 1, 200);
  const now = T0 + 61_000;
  const series = m.perMinute(now);
  assert.equal(series.length, 60);
  assert.deepEqual(
    series.slice(-2).map((p) => [p.requests, p.errors]),
    [
      [2, 1],
      [1, 0],
    ],
  );
  assert.equal(series.at(-1)!.t, Math.floor(now / 60_000) * 60);
  m.record(T0 + 3_600_000, 1, 200); // the same ring slot as T0, one hour on
  const later = m.perMinute(T0 + 3_600_000);
  assert.equal(later.at(-1)!.requests, 1, 'the slot was reset for its new minute');
  assert.equal(
    later.reduce((n, p) => n + p.requests, 0),
    2,
    'T0’s minute dropped out of the hour',
  );
});

test('requests per minute start at the server’s start: no empty minutes from before it', () => {
  const started = T0 + 30_000; // half a minute into T0's minute
  const m = new RequestMeter(() => started);
  assert.deepEqual(
    m.perMinute(started).map((p) => p.t),
    [T0 / 1000],
    'just started: one point, the start minute',
  );
  m.record(T0 + 150_000, 1, 200);
  const series = m.perMinute(T0 + 150_000);
  assert.deepEqual(
    series.map((p) => p.t),
    [T0 / 1000, T0 / 1000 + 60, T0 / 1000 + 120],
    'the start minute to the current one',
  );
  assert.equal(series.at(-1)!.requests, 1);
  assert.equal(m.perMinute(T0 + 2 * 3_600_000).length, 60, 'after an hour: the last hour, as before');
});

test('requests a second over the last 10 and 60 whole seconds', () => {
  const m = new RequestMeter(() => T0);
  for (let s = 0; s < 60; s++) for (let i = 0; i < 3; i++) m.record(T0 + s * 1000, 2, 200);
  const sum = m.summary(T0 + 60_000);
  assert.equal(sum.rps_10s, 3);
  assert.equal(sum.rps_60s, 3);
  assert.equal(sum.requests_total, 180);
  assert.ok(Math.abs(sum.p50_ms_1m! - 2) < 0.2);
  assert.equal(sum.uptime_s, 60);
});

test('record allocates nothing measurable over a million calls', () => {
  // A full collection before each reading: what stays is retained memory, not young garbage
  // (the loop's own numbers are heap numbers) that a collection would take anyway.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const m = new RequestMeter(() => T0);
  for (let i = 0; i < 10_000; i++) m.record(T0 + i, 0.1, 200); // warm up
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1_000_000; i++) m.record(T0 + i * 7, (i % 100) / 10, i % 10 === 0 ? 500 : 200);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(grown < 2 * 1024 * 1024, `heap grew ${grown} bytes`);
});

test('the server counts each API answer; health and usage pages show them', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const op = await s.signIn();
  for (let i = 0; i < 3; i++)
    assert.equal(
      (await s.call('/api/v1/ashare/klines/sh600001?limit=5', { headers: { 'x-api-key': s.keys.pro } })).status,
      200,
    );
  assert.equal((await s.call('/api/v1/markets', { headers: { 'x-api-key': 'mdq_nope' } })).status, 401);
  const health = await s.call('/admin/api/health', { cookie: op.cookie });
  assert.equal(health.status, 200);
  assert.equal(health.body.requests_total, 4);
  assert.equal(health.body.errors_total, 1);
  assert.equal(typeof health.body.p50_ms_1m, 'number');
  assert.ok(health.body.p99_ms_1m >= health.body.p50_ms_1m);
  assert.equal(health.body.status, 'ok');
  const usage = await s.call('/admin/api/usage', { cookie: op.cookie });
  assert.equal(usage.status, 200);
  assert.equal(usage.body.per_minute.at(-1).requests, 4);
  const pro = usage.body.keys.find((k: any) => k.id === idOf(s.keys.pro));
  assert.deepEqual(
    { rows: pro.rows, requests: pro.requests, daily_quota: pro.daily_quota, remaining: pro.remaining },
    { rows: 15, requests: 3, daily_quota: 200_000, remaining: 199_985 },
  );
  const internal = usage.body.keys.find((k: any) => k.id === idOf(s.keys.internal));
  assert.equal(internal.remaining, null, 'internal keys have no quota');
});
