// Two real instances sharing limits and keys through a real redis-server (REDIS_URL), each with
// its own state folder: the limits sequence (token bucket, daily quota) alternating between them,
// keys made or disabled on one taking effect on the other, Redis stopped and started mid-stream,
// and Redis unreachable at start.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FIXTURE, httpRequest, type ApiResponse } from '../helpers/api-server.js';
import { assertProblem } from '../helpers/e2e.js';
import { freePort } from '../helpers/nginx.js';
import { REDIS_SERVER, type RedisProcess, startRedis } from '../helpers/redis.js';
import { MAIN_JS, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { commandMissing, needsCommand } from '../helpers/system-command.js';

const KEYS_JS = fileURLToPath(new URL('../../loaders/cli/keys.js', import.meta.url));
const KLINES = '/api/v1/ashare/klines/sh600001?limit=5';

/** The keys command on a state folder; returns stdout's last line (the key, for create). */
function keysCommand(state: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [KEYS_JS, ...args, '--state', state], {
    encoding: 'utf8',
    env: { ...process.env, STATE_DIR: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').at(-1)!;
}
const idOf = (key: string): string => key.split('_')[1];
const get = (s: ServerProcess, path: string, key: string): Promise<ApiResponse> =>
  httpRequest(s.port, path, { headers: { 'x-api-key': key } });
const today = (): string => new Date().toISOString().slice(0, 10); // QUOTA_TZ is UTC

/** Polls `s` with `key` until the status is `want`; returns the ms it took (fails after `limitMs`). */
async function untilStatus(
  s: ServerProcess,
  key: string,
  want: number,
  limitMs: number,
  since: number,
): Promise<number> {
  for (;;) {
    const res = await get(s, '/api/v1/quota', key);
    const ms = performance.now() - since;
    if (res.status === want) return ms;
    if (ms > limitMs) assert.fail(`still ${res.status} after ${Math.round(ms)} ms, wanted ${want}: ${res.text}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('two instances sharing limits through Redis', {
  skip:
    commandMissing(REDIS_SERVER, ['--version']) !== null && process.env.CI !== 'true'
      ? 'redis-server is not installed: install the Debian package redis-server'
      : false,
}, () => {
  let redis: RedisProcess;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let a: ServerProcess;
  let b: ServerProcess;
  const stateA = (): string => join(dir.path, 'a');
  const stateB = (): string => join(dir.path, 'b');

  before(async (t) => {
    if (!needsCommand(t as never, REDIS_SERVER, 'redis-server')) return;
    redis = await startRedis();
    dir = await tempDir('mdq-shared-');
    await mkdir(stateA());
    await mkdir(stateB());
    const env = { REDIS_URL: redis.url, THREADS: '2' }; // each instance two serving threads: Redis and shared slots together
    a = await startServerProcess({ snapshot: FIXTURE, state: stateA(), env });
    b = await startServerProcess({ snapshot: FIXTURE, state: stateB(), env });
  });
  after(async () => {
    await a?.kill();
    await b?.kill();
    await redis?.close();
    await dir?.cleanup();
  });

  test("the second instance takes the first one's keys from Redis and makes none of its own", async () => {
    assert.deepEqual(Object.keys(a.keys).sort(), ['enterprise', 'free', 'internal', 'pro']);
    assert.deepEqual(b.keys, {}, 'no first keys printed by B');
    for (const key of Object.values(a.keys)) assert.equal((await get(b, '/api/v1/quota', key)).status, 200);
  });

  test('a key created on A is accepted on B within 1 s; disabled on B, refused on A within 1 s', async () => {
    const t0 = performance.now();
    const key = keysCommand(stateA(), 'create', '--plan', 'pro', '--org', 'Desk B');
    const accepted = await untilStatus(b, key, 200, 1000, t0);
    const t1 = performance.now();
    keysCommand(stateB(), 'disable', idOf(key));
    const refused = await untilStatus(a, key, 401, 1000, t1);
    console.log(
      `# key created on A accepted on B after ${Math.round(accepted)} ms; disabled on B refused on A after ${Math.round(refused)} ms`,
    );
  });

  test('a free key alternating A, B: 30 answered with X-RateLimit-Remaining 29..0, the 31st 429 rate_limited with Retry-After 2', async () => {
    const key = keysCommand(stateA(), 'create', '--plan', 'free');
    await untilStatus(b, key, 200, 1000, performance.now()); // that /quota took a token too
    for (let i = 2; i <= 31; i++) {
      const res = await get(i % 2 === 1 ? a : b, KLINES, key);
      const on = `request ${i} (${i % 2 === 1 ? 'A' : 'B'})`;
      if (i <= 30) {
        assert.equal(res.status, 200, `${on}: ${res.text}`);
        assert.equal(res.headers['x-ratelimit-remaining'], String(30 - i), on);
        assert.equal(res.headers['x-quota-remaining'], String(5000 - 5 * (i - 1)), `${on}: rows of both instances`);
      } else {
        assertProblem(res, 429, 'rate_limited', undefined, on);
        assert.equal(res.headers['retry-after'], '2');
        assert.equal(res.headers['x-ratelimit-remaining'], '0');
      }
    }
    const quota = await get(a, '/api/v1/quota', key);
    assert.equal(quota.status, 429, '/quota is rate limited too');
  });

  test('quota: the request starting with 1 row left is served whole on A; the next on B is 429 quota_exhausted; /quota agrees', async () => {
    const key = keysCommand(stateA(), 'create', '--plan', 'pro');
    await untilStatus(b, key, 200, 1000, performance.now());
    await redis.client().hset(`mdq:{${idOf(key)}}:usage:${today()}`, 'used', 199_999);
    const served = await get(a, KLINES, key);
    assert.equal(served.status, 200);
    assert.equal(served.body.count, 5);
    assert.equal(served.headers['x-quota-remaining'], '0', 'charged in full: 200,004 used');
    const refused = await get(b, KLINES, key);
    assertProblem(refused, 429, 'quota_exhausted');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    const q = await get(b, '/api/v1/quota', key);
    assert.equal(q.status, 200, '/quota charges no rows: still answered');
    assert.deepEqual([q.body.used, q.body.remaining, q.body.daily_quota], [200_004, 0, 200_000]);
    assert.ok(q.body.requests_today >= 4, `every request counted: ${q.body.requests_today}`);
  });

  test('a kept answer is admitted and charged in one step on either instance; a 304 charges nothing', async () => {
    const key = keysCommand(stateA(), 'create', '--plan', 'pro');
    await untilStatus(b, key, 200, 1000, performance.now()); // /quota: no rows
    const path = '/api/v1/ashare/klines/sh600001?limit=7';
    const first = await get(a, path, key); // rendered on A, then kept
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-quota-remaining'], String(200_000 - 7));
    for (const s of [a, b, a]) await get(s, path, key); // kept on A, rendered then kept on B
    const etag = String(first.headers.etag);
    const revalidated = await httpRequest(b.port, path, { headers: { 'x-api-key': key, 'if-none-match': etag } });
    assert.equal(revalidated.status, 304);
    assert.equal(
      revalidated.headers['x-quota-remaining'],
      String(200_000 - 28),
      'four answers of 7 rows, the 304 none',
    );
    const q = await get(a, '/api/v1/quota', key);
    assert.deepEqual([q.body.used, q.body.requests_today], [28, 7]);
  });

  test('Redis stopped mid-stream: limited keys get 503 limits_unavailable at once, internal keys are served, and both recover when it returns', async () => {
    const limited = keysCommand(stateA(), 'create', '--plan', 'enterprise');
    await untilStatus(b, limited, 200, 1000, performance.now());
    const internal = a.keys.internal!;
    const seen: string[] = [];
    const round = async (phase: string): Promise<void> => {
      for (const s of [a, b]) {
        const t0 = performance.now();
        const [l, i] = await Promise.all([get(s, KLINES, limited), get(s, KLINES, internal)]);
        seen.push(
          `${phase} ${l.status}${l.body?.code ? ` ${l.body.code}` : ''} / internal ${i.status} in ${Math.round(performance.now() - t0)} ms`,
        );
        assert.equal(i.status, 200, `${phase}: the internal key never needs Redis`);
        if (phase === 'down') {
          assertProblem(l, 503, 'limits_unavailable');
          assert.equal(l.headers['retry-after'], '1');
          assert.ok(performance.now() - t0 < 1000, 'refused at once, never a hang');
        }
      }
    };
    await round('up');
    await redis.stop();
    for (let i = 0; i < 5; i++) await round('down');
    await redis.start();
    // Back within a few seconds, by itself (ioredis reconnects every ≤ 500 ms); the keys are pushed back to the empty Redis.
    const back = await untilStatus(a, limited, 200, 5000, performance.now());
    await untilStatus(b, limited, 200, 5000, performance.now());
    await round('up again');
    assert.ok(
      seen.every((line) => !/ 5\d\d(?! limits_unavailable)/.test(line.split(' / ')[0])),
      seen.join('\n'),
    );
    console.log(`# Redis back: limited keys served again after ${Math.round(back)} ms`);
    await new Promise((r) => setTimeout(r, 600));
    assert.ok((await redis.client().hlen('mdq:keys')) >= 5, 'the key table was given back to the new Redis');
  });

  test('Redis stalled (SIGSTOP) mid-stream: the 503s charge nothing, so /quota counts exactly the rows of the answers sent', async () => {
    const key = keysCommand(stateA(), 'create', '--plan', 'enterprise');
    await untilStatus(b, key, 200, 1000, performance.now());
    // Five paths in turn: each rendered once per instance (charged after its answer is made), then kept (charged in the admit).
    const paths = [3, 4, 5, 6, 7].map((n) => `/api/v1/ashare/klines/sh600001?limit=${n}`);
    let served = 0;
    const statuses = new Map<number, number>();
    let stop = false;
    const loop = async (s: ServerProcess, from: number): Promise<void> => {
      for (let i = from; !stop; i++) {
        const r = await get(s, paths[i % paths.length], key);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) served += r.body.count;
        else assertProblem(r, 503, 'limits_unavailable');
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    };
    const loops = [loop(a, 0), loop(b, 1), loop(a, 2), loop(b, 3)];
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(redis.pid()!, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    process.kill(redis.pid()!, 'SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 800));
    stop = true;
    await Promise.all(loops);
    await new Promise((resolve) => setTimeout(resolve, 300)); // every queued command has run
    assert.ok(
      (statuses.get(503) ?? 0) > 0 && (statuses.get(200) ?? 0) > 0,
      `both outcomes happened: ${JSON.stringify([...statuses])}`,
    );
    const q = await get(a, '/api/v1/quota', key);
    assert.equal(q.body.used, served, `rows charged = rows answered (statuses ${JSON.stringify([...statuses])})`);
  });

  test('Redis unreachable at start: exit 2 with one line naming REDIS_URL, the password never shown', async () => {
    const port = await freePort();
    const r = spawnSync(
      process.execPath,
      [MAIN_JS, '--port', '0', '--state', join(dir.path, 'c'), '--snapshot', FIXTURE],
      {
        encoding: 'utf8',
        env: { ...process.env, REDIS_URL: `redis://:hunter2@127.0.0.1:${port}` },
        timeout: 20_000,
      },
    );
    assert.equal(r.status, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      new RegExp(
        `^mdq: cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(REDIS_URL\\): .*ECONNREFUSED`,
      ),
    );
    assert.doesNotMatch(r.stderr + r.stdout, /hunter2/);
  });
});
