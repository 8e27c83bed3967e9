// The keys page's last use and 7-day history: after requests, across a day's end, across a restart, and only 7 days.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type AdminServer, idOf, startAdminServer } from './admin-server.js';

const KLINES = '/api/v1/ashare/klines/sh600001?limit=5'; // 5 rows an answer
const DAY = 86_400_000;

/** The `n` days ending with `last` (`YYYY-MM-DD`), oldest first: the days the page shows, computed here independently. */
const daysTo = (last: string, n = 7): string[] =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(last) - (n - 1 - i) * DAY).toISOString().slice(0, 10));
const label = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe('last use and 7 days of counts per key', () => {
  let s: AdminServer;
  /** Noon UTC (QUOTA_TZ is UTC here) of the day after the server's start: hours from either midnight, and the quota day never moves back. */
  let NOON: number;
  const use = async (key: string, times: number) => {
    for (let i = 0; i < times; i++) assert.equal((await s.call(KLINES, { headers: { 'x-api-key': key } })).status, 200);
  };
  const keysPage = async () => {
    const op = await s.signIn(); // the clock moves by days here: a session would have ended
    const a = await s.call('/admin/api/keys', { cookie: op.cookie });
    assert.equal(a.status, 200, a.text);
    return a.body as {
      days: string[];
      keys: { id: string; last_used: string | null; requests_by_day: number[]; rows_by_day: number[] }[];
    };
  };
  const row = async (key: string) => {
    const page = await keysPage();
    return { days: page.days, ...page.keys.find((k) => k.id === idOf(key))! };
  };

  before(async () => {
    s = await startAdminServer();
    NOON = Date.parse(`${label(s.clock.ms + DAY)}T12:00:00Z`);
    s.clock.ms = NOON;
  });
  after(() => s.close());

  test("after requests: the key's last use is the last request's instant, and today (the last of 7 days) counts its requests and rows", async () => {
    await use(s.keys.pro, 3);
    s.clock.ms += 90_000;
    await use(s.keys.pro, 1);
    const r = await row(s.keys.pro);
    assert.deepEqual(r.days, daysTo(label(NOON)), '7 days, oldest first, today last');
    assert.equal(r.last_used, new Date(NOON + 90_000).toISOString());
    assert.deepEqual(r.requests_by_day, [0, 0, 0, 0, 0, 0, 4]);
    assert.deepEqual(r.rows_by_day, [0, 0, 0, 0, 0, 0, 20]);
    const unused = await row(s.keys.enterprise);
    assert.equal(unused.last_used, null, 'a key never used has no last use');
    assert.deepEqual(unused.requests_by_day, [0, 0, 0, 0, 0, 0, 0]);
  });

  test('a refused request (429) is a use too, and counts as a request without rows', async () => {
    for (let i = 0; i < 31; i++) await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.free } }); // a free bucket holds 30; the clock stands still
    const r = await row(s.keys.free);
    assert.equal(r.last_used, new Date(s.clock.ms).toISOString());
    assert.deepEqual([r.requests_by_day[6], r.rows_by_day[6]], [31, 0]);
  });

  test("at midnight the day moves: yesterday keeps its counts, the last second's included, and today starts from zero", async () => {
    const lastSecond = Date.parse(`${label(NOON)}T23:59:59.500Z`);
    s.clock.ms = lastSecond;
    await use(s.keys.pro, 2); // not flushed before midnight: no page read in between
    s.clock.ms = lastSecond + 1_000;
    await use(s.keys.pro, 1);
    const r = await row(s.keys.pro);
    assert.deepEqual(r.days, daysTo(label(NOON + DAY)));
    assert.deepEqual(r.requests_by_day, [0, 0, 0, 0, 0, 4 + 2, 1]);
    assert.deepEqual(r.rows_by_day, [0, 0, 0, 0, 0, 30, 5]);
    assert.equal(r.last_used, new Date(lastSecond + 1_000).toISOString());
  });

  test('a restart on the same state folder shows the same last uses and days (a clean stop flushes them)', async () => {
    await use(s.keys.pro, 1);
    const before = await keysPage();
    await use(s.keys.enterprise, 1); // after the last page read (which flushes): only the stop's flush stores it
    const usedAt = s.clock.ms;
    await s.close({ keepState: true });
    s = await startAdminServer({ restartOf: s });
    const afterRestart = await keysPage();
    assert.deepEqual(afterRestart.days, before.days);
    const pro = (p: typeof before) => p.keys.find((k) => k.id === idOf(s.keys.pro))!;
    assert.deepEqual(pro(afterRestart), pro(before), "the pro key's last use and 7 days");
    const enterprise = afterRestart.keys.find((k) => k.id === idOf(s.keys.enterprise))!;
    assert.equal(enterprise.last_used, new Date(usedAt).toISOString(), 'a use just before the stop is kept');
    assert.deepEqual([enterprise.requests_by_day[6], enterprise.rows_by_day[6]], [1, 5]);
  });

  test('only 7 days are shown: a day 7 days back has left the window, while the last use stays', async () => {
    const r0 = await row(s.keys.pro);
    const firstDay = r0.days[5]; // the day of the first requests (yesterday)
    s.clock.ms += 5 * DAY; // firstDay is now 6 days back: the oldest shown
    let r = await row(s.keys.pro);
    assert.equal(r.days[0], firstDay);
    assert.deepEqual(r.requests_by_day, [6, 2, 0, 0, 0, 0, 0]);
    s.clock.ms += DAY; // 7 days back: out of the window
    r = await row(s.keys.pro);
    assert.ok(!r.days.includes(firstDay));
    assert.deepEqual(r.requests_by_day, [2, 0, 0, 0, 0, 0, 0]);
    assert.equal(r.last_used, r0.last_used, 'the last use outlives the window');
  });
});
