// Rate limiting (a token bucket per key) and the daily row quota end to end, on an injected clock: a fresh server per test.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiResponse, TestServer } from '../../helpers/api-server.js';
import {
  assertProblem,
  BIG_FREE_BATCH,
  CLOCK_START,
  drainBucket,
  exhaustFreeQuota,
  ManualClock,
  ok,
  startLimitServer,
} from '../../helpers/e2e.js';
import { klineWindow } from '../../helpers/fixture-model.js';

const DAY = 86_400_000;
/** ISO instant of the UTC midnight after `ms`. */
const nextMidnight = (ms: number): string => new Date((Math.floor(ms / DAY) + 1) * DAY).toISOString();
/** Whole seconds (ceil) from `ms` to the next UTC midnight. */
const secondsToMidnight = (ms: number): number => Math.ceil(((Math.floor(ms / DAY) + 1) * DAY - ms) / 1000);

const quota = async (s: TestServer, key: string): Promise<any> =>
  ok(await s.get('/api/v1/quota', { key }), '/quota answers');
const h = (res: ApiResponse, name: string): string | undefined => res.headers[name] as string | undefined;

/** Rows one BIG_FREE_BATCH answers, computed from the fixture. */
const BATCH_ROWS = ['sh600001', 'sz000003', 'sz000004', 'sz000005', 'sh600006'].reduce(
  (n, s) => n + klineWindow('ashare', s, { limit: 100, fields: [] }).rows.length,
  0,
);

// ---- Rate ----

test('free key: 30 immediate requests pass, X-RateLimit-Remaining counting down 29 … 0', async (t) => {
  const { server: s } = await startLimitServer(t);
  for (let i = 1; i <= 30; i++) {
    const res = await s.get('/api/v1/markets', { key: s.keys.free });
    assert.equal(res.status, 200, `request ${i} passes`);
    assert.equal(h(res, 'x-ratelimit-limit'), '30', 'X-RateLimit-Limit is the free plan’s 30 rpm');
    assert.equal(
      h(res, 'x-ratelimit-remaining'),
      String(30 - i),
      `after request ${i}, ${30 - i} whole tokens are left`,
    );
  }
});

test('free key: the 31st immediate request is 429 rate_limited with Retry-After 2 (one token per 2 s)', async (t) => {
  const { server: s } = await startLimitServer(t);
  for (let i = 1; i <= 30; i++) await s.get('/api/v1/markets', { key: s.keys.free });
  const res = await s.get('/api/v1/markets', { key: s.keys.free });
  assertProblem(res, 429, 'rate_limited');
  assert.equal(h(res, 'retry-after'), '2', '30 rpm refills one token in 2 s');
  assert.equal(h(res, 'x-ratelimit-remaining'), '0', 'no tokens left');
});

test('free key: 1.999 s after running dry it is still refused, with Retry-After 1', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  await drainBucket(s, s.keys.free);
  clock.advance(1999);
  const res = await s.get('/api/v1/markets', { key: s.keys.free });
  assertProblem(res, 429, 'rate_limited');
  assert.equal(h(res, 'retry-after'), '1', 'one millisecond to wait rounds up to 1 s');
});

test('free key: 2 s after running dry exactly one more request passes', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  assert.equal(await drainBucket(s, s.keys.free), 30, 'a new key’s bucket holds 30 tokens');
  clock.advance(2000);
  const res = await s.get('/api/v1/markets', { key: s.keys.free });
  assert.equal(res.status, 200, 'a refilled token is spent');
  assert.equal(h(res, 'x-ratelimit-remaining'), '0', 'and nothing else was refilled');
  assertProblem(
    await s.get('/api/v1/markets', { key: s.keys.free }),
    429,
    'rate_limited',
    undefined,
    'the next one is refused again',
  );
});

test('free key: tokens refill continuously at rpm/60 per second (10 s → 5 tokens)', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  await drainBucket(s, s.keys.free);
  clock.advance(10_000);
  for (let i = 1; i <= 5; i++)
    assert.equal((await s.get('/api/v1/quota', { key: s.keys.free })).status, 200, `refilled token ${i}`);
  assertProblem(
    await s.get('/api/v1/quota', { key: s.keys.free }),
    429,
    'rate_limited',
    undefined,
    'the sixth is refused',
  );
});

test('the bucket never holds more than its capacity, however long the key waits', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  clock.advance(3_600_000);
  assert.equal(await drainBucket(s, s.keys.free), 30, 'an hour idle still gives 30 tokens');
});

test('pro key: 120 immediate requests pass, the 121st is 429 with Retry-After 1', async (t) => {
  const { server: s } = await startLimitServer(t);
  assert.equal(await drainBucket(s, s.keys.pro), 120, 'the pro bucket holds 120 tokens');
  const res = await s.get('/api/v1/quota', { key: s.keys.pro });
  assertProblem(res, 429, 'rate_limited');
  assert.equal(h(res, 'retry-after'), '1', '120 rpm refills a token in 0.5 s, rounded up to 1 s');
});

test('rate and quota headers give each plan’s figures, on errors too', async (t) => {
  const { server: s } = await startLimitServer(t);
  for (const [plan, rpm, rows] of [
    ['free', '30', '5000'],
    ['pro', '120', '200000'],
    ['enterprise', '600', '2000000'],
  ] as const) {
    for (const path of ['/api/v1/quota', '/api/v1/ashare/klines/sh600001?limit=0', '/api/v1/ashare/detail/nope']) {
      const res = await s.get(path, { key: s.keys[plan] });
      assert.equal(h(res, 'x-ratelimit-limit'), rpm, `${plan} ${path}: X-RateLimit-Limit`);
      assert.equal(h(res, 'x-quota-limit'), rows, `${plan} ${path}: X-Quota-Limit`);
      assert.equal(h(res, 'x-quota-remaining'), rows, `${plan} ${path}: X-Quota-Remaining (nothing charged)`);
      assert.ok(h(res, 'x-ratelimit-remaining') !== undefined, `${plan} ${path}: X-RateLimit-Remaining`);
    }
  }
});

// ---- Quota ----

test('a known sequence of calls: X-Quota-Remaining after each charge, then exact used, remaining, requests_today', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const key = s.keys.free;
  const steps: [path: string, status: number, rows: number][] = [
    ['/api/v1/ashare/klines/sh600001?limit=10', 200, 10],
    ['/api/v1/ashare/detail/sh600001', 200, 1],
    ['/api/v1/markets', 200, 6],
    ['/api/v1/ashare/klines/sh600001?limit=0', 400, 0],
    ['/api/v1/ashare/klines/sh999999', 404, 0],
    ['/api/v1/ashare/klines?symbols=sh600001,sz000002,nope&limit=3', 200, 4],
    ['/api/v1/macro?indicator=gdp', 200, 1],
  ];
  let used = 0;
  for (const [path, status, rows] of steps) {
    const res = await s.get(path, { key });
    assert.equal(res.status, status, `${path} is ${status}`);
    if (status === 200) assert.equal(res.body.count, rows, `${path} answers ${rows} rows`);
    used += rows;
    assert.equal(h(res, 'x-quota-remaining'), String(5000 - used), `${path}: X-Quota-Remaining after its charge`);
  }
  const exp = {
    plan: 'free',
    org_name: 'free desk',
    daily_quota: 5000,
    used,
    remaining: 5000 - used,
    requests_today: steps.length + 1,
    reset_at: nextMidnight(clock.ms),
    export_quota: 0,
    export_used: 0,
    export_remaining: 0,
  };
  assert.deepEqual(await quota(s, key), exp, 'used 22, remaining 4978, 8 requests (this /quota included)');
});

test('/quota charges no rows but counts as a request', async (t) => {
  const { server: s } = await startLimitServer(t);
  await s.get('/api/v1/markets', { key: s.keys.free });
  const first = await quota(s, s.keys.free);
  const second = await quota(s, s.keys.free);
  assert.deepEqual([first.used, first.requests_today], [6, 2], 'markets charged 6 rows; two requests so far');
  assert.deepEqual([second.used, second.requests_today], [6, 3], '/quota charged nothing and counted itself');
});

test('refused requests (429) count in requests_today', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const n = await drainBucket(s, s.keys.free);
  assertProblem(await s.get('/api/v1/markets', { key: s.keys.free }), 429, 'rate_limited');
  clock.advance(2000);
  const q = await quota(s, s.keys.free);
  assert.equal(q.requests_today, n + 2, '30 passed, 1 refused, and this one');
  assert.equal(q.used, 0, 'the refused markets call charged nothing');
});

test('a request that starts with rows left is served whole and charged in full, past the quota', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const { used, requests, lastCount } = await exhaustFreeQuota(s, clock);
  const expectedRequests = Math.ceil(5000 / BATCH_ROWS);
  assert.equal(requests, expectedRequests, `${BATCH_ROWS} rows a batch run out after ${expectedRequests} batches`);
  assert.equal(lastCount, BATCH_ROWS, 'the last batch is served whole though fewer rows were left');
  assert.equal(used, expectedRequests * BATCH_ROWS, 'every row was charged');
  const q = await quota(s, s.keys.free);
  assert.deepEqual(
    [q.used, q.remaining, q.requests_today],
    [used, 0, requests + 1],
    'used goes past 5000; remaining is max(0, quota − used)',
  );
});

test('once no rows are left, the next charging request is 429 quota_exhausted with Retry-After until 00:00 UTC', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  await exhaustFreeQuota(s, clock);
  clock.advance(2000);
  const res = await s.get('/api/v1/ashare/detail/sh600001', { key: s.keys.free });
  assertProblem(res, 429, 'quota_exhausted');
  assert.equal(
    h(res, 'retry-after'),
    String(secondsToMidnight(clock.ms)),
    'Retry-After is the seconds left until the day resets',
  );
  assert.equal(h(res, 'x-quota-remaining'), '0', 'X-Quota-Remaining 0');
});

test('with no rows left /quota still answers 200', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const { used } = await exhaustFreeQuota(s, clock);
  clock.advance(2000);
  const res = await s.get('/api/v1/quota', { key: s.keys.free });
  assert.equal(res.status, 200, '/quota charges no rows, so no quota check');
  assert.equal(res.body.used, used, 'the record shows the overshoot');
  assert.equal(res.body.remaining, 0, 'remaining 0');
});

test('a 429 quota_exhausted charges nothing', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const { used } = await exhaustFreeQuota(s, clock);
  clock.advance(2000);
  assertProblem(await s.get(BIG_FREE_BATCH, { key: s.keys.free }), 429, 'quota_exhausted');
  clock.advance(2000);
  assert.equal((await quota(s, s.keys.free)).used, used, 'used unchanged by the refusal');
});

test('the day rolls over at 00:00 UTC: used and requests_today start again from zero', async (t) => {
  const clock = new ManualClock(Date.UTC(2025, 2, 15, 23, 59, 50));
  const { server: s } = await startLimitServer(t, clock);
  await s.get('/api/v1/ashare/klines/sh600001?limit=10', { key: s.keys.free });
  const before = await quota(s, s.keys.free);
  assert.deepEqual(
    [before.used, before.requests_today, before.reset_at],
    [10, 2, '2025-03-16T00:00:00.000Z'],
    'the old day',
  );
  clock.ms = Date.UTC(2025, 2, 16, 0, 0, 0);
  const after = await quota(s, s.keys.free);
  assert.deepEqual(
    [after.used, after.remaining, after.requests_today, after.reset_at],
    [0, 5000, 1, '2025-03-17T00:00:00.000Z'],
    'a fresh day',
  );
});

test('an exhausted key is served again after the day rolls over', async (t) => {
  const { server: s, clock } = await startLimitServer(t, new ManualClock(CLOCK_START));
  await exhaustFreeQuota(s, clock);
  clock.ms = Date.UTC(2025, 2, 16, 0, 0, 1);
  const res = await s.get('/api/v1/markets', { key: s.keys.free });
  assert.equal(res.status, 200, 'a new day has rows again');
  assert.equal(h(res, 'x-quota-remaining'), '4994', '5000 − 6');
});

test('with QUOTA_TZ=Asia/Shanghai the day resets at 16:00 UTC (00:00 in Shanghai)', async (t) => {
  const clock = new ManualClock(Date.UTC(2025, 2, 15, 15, 59, 0));
  const { server: s } = await startLimitServer(t, clock, 'Asia/Shanghai');
  await s.get('/api/v1/markets', { key: s.keys.free });
  const before = await quota(s, s.keys.free);
  assert.deepEqual([before.used, before.reset_at], [6, '2025-03-15T16:00:00.000Z'], 'reset_at is Shanghai midnight');
  clock.ms = Date.UTC(2025, 2, 15, 16, 0, 0);
  const after = await quota(s, s.keys.free);
  assert.deepEqual(
    [after.used, after.requests_today, after.reset_at],
    [0, 1, '2025-03-16T16:00:00.000Z'],
    'a new Shanghai day',
  );
});

// ---- Internal keys ----

test('internal key: never rate-limited and no rate or quota headers', async (t) => {
  const { server: s } = await startLimitServer(t);
  for (let i = 1; i <= 700; i++) {
    const res = await s.get('/api/v1/quota', { key: s.keys.internal });
    assert.equal(res.status, 200, `immediate request ${i} passes`);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-quota-limit', 'x-quota-remaining']) {
      assert.equal(h(res, name), undefined, `no ${name} header on an internal key's response`);
    }
  }
});

test('internal key: /quota shows null daily_quota and remaining, and counts rows and requests', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  await s.get('/api/v1/markets', { key: s.keys.internal });
  await s.get('/api/v1/ashare/klines/sh600001?limit=10', { key: s.keys.internal });
  const exp = {
    plan: 'internal',
    org_name: 'internal desk',
    daily_quota: null,
    used: 16,
    remaining: null,
    requests_today: 3,
    reset_at: nextMidnight(clock.ms),
    export_quota: null,
    export_used: 0,
    export_remaining: null,
  };
  assert.deepEqual(await quota(s, s.keys.internal), exp, 'counted like any key, never limited');
});

test('internal key: batch size 50 and rows per call 500', async (t) => {
  const { server: s } = await startLimitServer(t);
  const res = await s.get('/api/v1/ashare/klines/sh600001?limit=501', { key: s.keys.internal });
  assert.equal(res.body.limit, 500, 'limit clamped to 500');
  const fifty = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'sh600001' : `x${i}`)).join(',');
  assert.equal(
    (await s.get(`/api/v1/ashare/detail?symbols=${fifty}&fields=close`, { key: s.keys.internal })).status,
    200,
    '50 symbols pass',
  );
  const fiftyOne = `${fifty},x99`;
  assertProblem(
    await s.get(`/api/v1/ashare/detail?symbols=${fiftyOne}`, { key: s.keys.internal }),
    400,
    'batch_too_large',
    'symbols',
  );
});
