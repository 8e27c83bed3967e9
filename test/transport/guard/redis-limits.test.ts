// Limits shared through a real redis-server: two guards stand for two instances, alternating.
// The figures are checked against the local guard's, which the limits tests pin.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { DEFAULT_PLANS, type KeyRecord, type PlanName, Plans } from '../../../engine/plans.js';
import { connectRedis, RedisUnreachable } from '../../../loaders/state/redis-connect.js';
import { secretHash } from '../../../transport/guard/api-key.js';
import { Guard, type Verdict } from '../../../transport/guard/guard.js';
import { RedisLimits } from '../../../transport/guard/redis-limits.js';
import { LimitsUnavailable } from '../../../transport/guard/shared-limits.js';
import { freePort } from '../../helpers/nginx.js';
import { REDIS_SERVER, type RedisProcess, startRedis } from '../../helpers/redis.js';
import { commandMissing, needsCommand } from '../../helpers/system-command.js';

const SECRET = 'S3cretS3cretS3cretS3cretS3cret00';
const NOW = Date.parse('2026-06-01T12:00:00Z');
let seq = 0;
const record = (plan: PlanName): KeyRecord => ({
  id: `key${plan}${++seq}x`,
  plan,
  org: 'Desk',
  created: '2026-01-01T00:00:00.000Z',
  disabled: false,
  hash: secretHash(SECRET),
});
const text = (r: KeyRecord): string => `mdq_${r.id}_${SECRET}`;
const figures = (v: Verdict): string =>
  `${v.ok ? 'ok' : v.code} rate ${v.rateRemaining}/${v.rateLimit} quota ${v.quotaRemaining}/${v.quotaLimit}`;

describe('limits shared through Redis', {
  skip:
    commandMissing(REDIS_SERVER, ['--version']) !== null && process.env.CI !== 'true'
      ? 'redis-server is not installed: install the Debian package redis-server'
      : false,
}, () => {
  let redis: RedisProcess;
  const clients: Redis[] = [];
  /** One "instance": its own guard and connection, over the same Redis and key table. */
  const instance = async (...keys: KeyRecord[]): Promise<Guard> => instanceWith(DEFAULT_PLANS, ...keys);
  /** An instance whose plans in force are `plans` (PLANS_FILE's). */
  const instanceWith = async (plans: Plans, ...keys: KeyRecord[]): Promise<Guard> => {
    const c = await connectRedis(redis.url, () => {});
    clients.push(c);
    const g = new Guard('UTC', new RedisLimits(c), null, { plans });
    g.setKeys(keys);
    return g;
  };
  before(async (t) => {
    if (!needsCommand(t as never, REDIS_SERVER, 'redis-server')) return;
    redis = await startRedis();
  });
  after(async () => {
    for (const c of clients) c.disconnect();
    await redis?.close();
  });

  test("pushed rows (a stream's messages) on two instances: charged while rows are left, as the local guard charges them; then withheld, nothing charged", async () => {
    const plans = new Plans(
      [
        ...DEFAULT_PLANS.list,
        {
          name: 'gold',
          rpm: 3,
          dailyQuota: 10,
          batch: 2,
          rowsPerCall: 3,
          exportRows: 0,
          connections: 1,
          subscriptions: 5,
        },
      ],
      'plans.json',
    );
    const r = record('gold');
    const [a, b] = [await instanceWith(plans, r), await instanceWith(plans, r)];
    const local = new Guard('UTC', null, null, { plans });
    local.setKeys([r]);
    const lk = local.authenticate(text(r))!;
    const pushes = [4, 4, 3, 1, 0];
    for (const [n, rows] of pushes.entries()) {
      const g = n % 2 === 0 ? a : b;
      const key = g.authenticate(text(r))!;
      const shared = await g.chargePushShared(key, rows, NOW);
      assert.equal(shared, local.chargePush(lk, rows, NOW), `push ${n + 1} of ${rows} rows`);
    }
    // 4 + 4 + 3 (started with 2 left: charged whole) = 11; the 1 and the 0 withheld.
    const k = a.authenticate(text(r))!;
    assert.equal((await (a.shared as RedisLimits).push(r.id, a.dayLabel(NOW), 0, 10)) < 0, true, 'none left in Redis');
    assert.equal(local.quota(lk, NOW).used, 11);
    await a.admitShared(k, NOW, false);
    assert.equal(a.quota(k, NOW).used, 11, "Redis's count: what both instances pushed");
  });

  test('a free key alternating between two instances: 30 admitted with 29..0 left, the 31st refused rate_limited, Retry-After 2', async () => {
    const r = record('free');
    const [a, b] = [await instance(r), await instance(r)];
    const local = new Guard('UTC');
    local.setKeys([r]);
    for (let i = 1; i <= 31; i++) {
      const g = i % 2 === 1 ? a : b;
      const key = g.authenticate(text(r))!;
      assert.ok(g.isShared(key));
      const v = await g.admitShared(key, NOW, true);
      const expected = local.admit(local.authenticate(text(r))!, NOW, true); // the same request, one instance, no time passing
      assert.equal(figures(v), figures(expected), `request ${i} on ${i % 2 === 1 ? 'A' : 'B'}`);
      assert.equal(v.retryAfter, expected.retryAfter, `request ${i}: Retry-After`);
    }
    // /quota is admitted like any request (charging nothing), then reads what Redis answered.
    const kb = b.authenticate(text(r))!;
    await b.admitShared(kb, NOW, false);
    assert.equal(
      b.quota(kb, NOW).requests_today,
      32,
      'requests_today counts every request, refused ones included, across both',
    );
  });

  test('quota: a request starting with rows left is served whole and charged in full; the next refused quota_exhausted on the other instance', async () => {
    const r = record('pro'); // 120 rpm, 200,000 rows a day
    const [a, b] = [await instance(r), await instance(r)];
    const ka = a.authenticate(text(r))!;
    const kb = b.authenticate(text(r))!;
    assert.equal((await a.admitShared(ka, NOW, true)).quotaRemaining, 200_000);
    assert.equal(await a.chargeShared(ka, 199_999, NOW), 1, 'X-Quota-Remaining after the charge');
    const v = await b.admitShared(kb, NOW, true);
    assert.equal(figures(v), 'ok rate 118/120 quota 1/200000', 'one row left: admitted on B');
    assert.equal(await b.chargeShared(kb, 500, NOW), 0, 'charged in full: 200,499 used, 0 left');
    const refused = await a.admitShared(ka, NOW, true);
    assert.equal(refused.code, 'quota_exhausted');
    assert.equal(refused.retryAfter, 12 * 3600, 'until 00:00 UTC');
    assert.equal((await a.admitShared(ka, NOW, false)).ok, true, '/quota (charges nothing) is still answered');
    const q = a.quota(ka, NOW); // A's figures as of its last admit: both instances' rows, 4 requests
    assert.deepEqual([q.used, q.remaining, q.requests_today], [200_499, 0, 4]);
    assert.equal(
      await clients[0].hget(`mdq:{${r.id}}:usage:2026-06-01`, 'quota_exhausted'),
      '1',
      'the refusal is counted in Redis',
    );
  });

  test('exports draw on the export allowance in Redis, apart from the rows: two instances cannot both take its last rows; a Redis that lost it starts from what this instance saw', async () => {
    const r = record('pro'); // 20,000,000 export rows a day
    const [a, b] = [await instance(r), await instance(r)];
    const ka = a.authenticate(text(r))!;
    const kb = b.authenticate(text(r))!;
    assert.deepEqual(await a.chargeExportShared(ka, 19_999_000, NOW), { fits: true, remaining: 1_000, retryAfter: 0 });
    const [one, other] = await Promise.all([b.chargeExportShared(kb, 600, NOW), a.chargeExportShared(ka, 600, NOW)]);
    assert.deepEqual([one.fits, other.fits].sort(), [false, true], 'one of two 600-row exports fits the last 1,000');
    const usage = `mdq:{${r.id}}:usage:2026-06-01`;
    assert.deepEqual(await clients[0].hmget(usage, 'exported', 'used'), ['19999600', null], 'the row count untouched');
    await clients[0].hdel(usage, 'exported'); // Redis lost it (a restart without persistence)
    const again = await a.chargeExportShared(ka, 500, NOW);
    assert.deepEqual(
      [again.fits, again.remaining],
      [false, 400],
      "seeded from this instance's count: not handed out twice",
    );
  });

  test('an internal key is never shared: it is admitted here, with no header figures', async () => {
    const r = record('internal');
    const g = await instance(r);
    const key = g.authenticate(text(r))!;
    assert.equal(g.isShared(key), false);
    assert.equal(figures(g.admit(key, NOW, true)), 'ok rate null/null quota null/null');
    assert.equal(
      await clients[0].exists(`mdq:{${r.id}}:bucket`, `mdq:{${r.id}}:usage:2026-06-01`),
      0,
      'nothing written to Redis',
    );
  });

  test("a plan of PLANS_FILE, shared: Redis limits it by the file's figures (3 a minute, 5 rows a day) across both instances", async () => {
    const plans = new Plans(
      [
        ...DEFAULT_PLANS.list,
        {
          name: 'gold',
          rpm: 3,
          dailyQuota: 5,
          batch: 2,
          rowsPerCall: 3,
          exportRows: 0,
          connections: 1,
          subscriptions: 5,
        },
      ],
      'plans.json',
    );
    const r = record('gold');
    const [a, b] = [await instanceWith(plans, r), await instanceWith(plans, r)];
    const [ka, kb] = [a.authenticate(text(r))!, b.authenticate(text(r))!];
    assert.equal(figures(await a.admitShared(ka, NOW, true)), 'ok rate 2/3 quota 5/5');
    assert.equal(await a.chargeShared(ka, 3, NOW), 2);
    assert.equal(
      figures(await b.admitShared(kb, NOW, true, 3)),
      'ok rate 1/3 quota 2/5',
      'a kept answer of 3 rows admitted and charged on B',
    );
    assert.equal((await a.admitShared(ka, NOW, true)).code, 'quota_exhausted', '6 rows used of 5');
    assert.equal((await b.admitShared(kb, NOW, false)).code, 'rate_limited', 'the 4th request of the minute');
  });

  test('a bucket refills by Redis time: Retry-After seconds after the 31st refusal a request is admitted again', async () => {
    const r = record('free');
    const g = await instance(r);
    const key = g.authenticate(text(r))!;
    let v: Verdict | undefined;
    for (let i = 0; i < 31; i++) v = await g.admitShared(key, NOW, false);
    assert.equal(v!.code, 'rate_limited');
    await new Promise((resolve) => setTimeout(resolve, v!.retryAfter * 1000));
    assert.equal((await g.admitShared(key, NOW, false)).ok, true);
  });

  test('Redis stopped: a limited admit fails LimitsUnavailable at once; a restarted, empty Redis carries on from the usage this instance saw', async () => {
    const r = record('enterprise');
    const g = await instance(r);
    const key = g.authenticate(text(r))!;
    assert.equal((await g.admitShared(key, NOW, true)).ok, true);
    assert.equal(await g.chargeShared(key, 1234, NOW), 2_000_000 - 1234);
    await redis.stop();
    const t0 = performance.now();
    await assert.rejects(g.admitShared(key, NOW, true), LimitsUnavailable);
    await assert.rejects(g.chargeShared(key, 10, NOW), LimitsUnavailable);
    assert.ok(performance.now() - t0 < 1000, 'refused at once, never a hang');
    await redis.start(); // empty: the scripts are gone from its cache too
    const deadline = Date.now() + 5000;
    let v: Verdict | null = null;
    while (v === null && Date.now() < deadline) {
      v = await g.admitShared(key, NOW, true).catch(() => null);
      if (v === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(v !== null, 'the client reconnected by itself');
    assert.equal(
      figures(v),
      'ok rate 599/600 quota 1998766/2000000',
      "a new Redis: a full bucket, and today's usage as this instance last saw it",
    );
    assert.equal(g.quota(key, NOW).requests_today, 2, 'the requests refused while Redis was away never reached it');
    assert.deepEqual(await redis.client().hgetall(`mdq:{${r.id}}:usage:2026-06-01`), { used: '1234', requests: '2' });
  });

  test('Redis unreachable at connect: RedisUnreachable naming the URL without its password', async () => {
    const port = await freePort();
    await assert.rejects(
      connectRedis(`redis://:hunter2@127.0.0.1:${port}`, () => {}),
      (error: Error) => {
        assert.ok(error instanceof RedisUnreachable);
        assert.match(
          error.message,
          new RegExp(
            `^cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(REDIS_URL\\): .*ECONNREFUSED`,
          ),
        );
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });
});

/** A stand-in for ioredis: each script answers what the test says, after the delay it says. */
function slowRedis(answers: { mdqAdmit?: number[]; mdqCharge?: number }, delayMs: number) {
  const refunds: [string, number][] = [];
  const client = {
    defineCommand: () => {},
    mdqAdmit: () => new Promise((resolve) => setTimeout(() => resolve(answers.mdqAdmit), delayMs)),
    mdqCharge: () => new Promise((resolve) => setTimeout(() => resolve(answers.mdqCharge), delayMs)),
    mdqRefund: (usage: string, rows: number) => (refunds.push([usage, rows]), Promise.resolve(null)),
  };
  return { limits: new RedisLimits(client as unknown as Redis), refunds };
}

describe('a reply that comes after the request gave up (the store slow, or this event loop late)', () => {
  test('a charge it says counted is refunded; the request was answered 503 at 0.5 s', async () => {
    const { limits, refunds } = slowRedis({ mdqCharge: 42 }, 700);
    const t0 = performance.now();
    await assert.rejects(limits.charge('k1', '2026-06-01', 7), LimitsUnavailable);
    assert.ok(performance.now() - t0 < 650, 'given up at 0.5 s');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(refunds, [['mdq:{k1}:usage:2026-06-01', 7]]);
  });

  test('a charge it says came too late to count (-1) is not refunded', async () => {
    const { limits, refunds } = slowRedis({ mdqCharge: -1 }, 700);
    await assert.rejects(limits.charge('k2', '2026-06-01', 7), LimitsUnavailable);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(refunds, []);
  });

  test("a kept answer's admit that charged its rows is refunded; one that did not charge them is not", async () => {
    const charged = slowRedis({ mdqAdmit: [0, 100, 0, 1, 0, 0, Date.now(), 1] }, 700);
    await assert.rejects(
      charged.limits.admit({
        id: 'k3',
        day: '2026-06-01',
        rpm: 30,
        dailyQuota: 5000,
        chargesRows: true,
        seen: { used: 0, requests: 0 },
        rows: 9,
      }),
      LimitsUnavailable,
    );
    const uncharged = slowRedis({ mdqAdmit: [0, 100, 0, 1, 0, 0, Date.now(), 0] }, 700);
    await assert.rejects(
      uncharged.limits.admit({
        id: 'k4',
        day: '2026-06-01',
        rpm: 30,
        dailyQuota: 5000,
        chargesRows: true,
        seen: { used: 0, requests: 0 },
        rows: 9,
      }),
      LimitsUnavailable,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual([charged.refunds, uncharged.refunds], [[['mdq:{k3}:usage:2026-06-01', 9]], []]);
  });

  test('a reply in time is taken, with nothing refunded', async () => {
    const { limits, refunds } = slowRedis({ mdqCharge: 12 }, 50);
    assert.equal(await limits.charge('k5', '2026-06-01', 7), 12);
    assert.deepEqual(refunds, []);
  });
});
