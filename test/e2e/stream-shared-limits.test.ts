// The stream under REDIS_URL (a real redis-server, THREADS=2): pushed rows are charged in Redis, so
// REST requests and the stream share one daily quota; a key with none left gets its one
// quota_exhausted per subscription; a key with rows gets each message (sent once its charge is
// answered).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { httpRequest } from '../helpers/api-server.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { REDIS_SERVER, type RedisProcess, startRedis } from '../helpers/redis.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { welcomed } from '../helpers/stream-client.js';
import { commandMissing, needsCommand } from '../helpers/system-command.js';

const KEYS_JS = fileURLToPath(new URL('../../loaders/cli/keys.js', import.meta.url));
const PLANS = { tight: { rpm: 600, daily_quota: 6, batch: 5, rows_per_call: 100, connections: 2, subscriptions: 5 } };

describe('the stream with limits shared through Redis', {
  skip:
    commandMissing(REDIS_SERVER, ['--version']) !== null && process.env.CI !== 'true'
      ? 'redis-server is not installed: install the Debian package redis-server'
      : false,
}, () => {
  let redis: RedisProcess;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: ServerProcess;
  let link: string;
  let B: string;
  let tight: string;

  before(async (t) => {
    if (!needsCommand(t as never, REDIS_SERVER, 'redis-server')) return;
    redis = await startRedis();
    dir = await tempDir('mdq-stream-redis-');
    await writeFile(join(dir.path, 'plans.json'), JSON.stringify(PLANS));
    const A = await fixtureCopy(join(dir.path, 'A'));
    B = await fixtureCopy(join(dir.path, 'B'));
    await appendFile(
      join(B, 'ashare/klines.csv'),
      'sh600001,2025-03-17,6.30,6.50,6.28,6.45,50000,32000000.00,2.157024\n',
    );
    link = join(dir.path, 'current');
    await symlink(A, link);
    const env = { REDIS_URL: redis.url, THREADS: '2', PLANS_FILE: join(dir.path, 'plans.json') };
    server = await startServerProcess({ snapshot: link, state: join(dir.path, 'state'), env });
    const r = spawnSync(process.execPath, [KEYS_JS, 'create', '--plan', 'tight', '--state', join(dir.path, 'state')], {
      encoding: 'utf8',
      env: { ...process.env, STATE_DIR: '', PLANS_FILE: join(dir.path, 'plans.json') },
    });
    assert.equal(r.status, 0, r.stderr);
    tight = r.stdout.trim().split('\n').at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });
  after(async () => {
    await server?.kill();
    await redis?.close();
    await dir?.cleanup();
  });

  const used = async (key: string): Promise<number> =>
    (await httpRequest(server.port, '/api/v1/quota', { headers: { 'x-api-key': key } })).body.used;

  test('one quota for REST and the stream: a page charged in Redis, a REST answer after it, then the stream withheld with one error each', async () => {
    const c = await welcomed(server.port, { key: tight });
    const pro = await welcomed(server.port, { key: server.keys.pro! });
    for (const s of [c, pro]) {
      s.send({ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sh600001'] });
      s.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'top', query: { limit: 3 } });
      await s.waitFor((m) => m.type === 'screen');
    }
    await new Promise((r) => setTimeout(r, 200)); // the charges reach Redis before the page is sent, and /quota reads Redis
    assert.equal(await used(tight), 3, 'the first page, charged in Redis');
    const rest = await httpRequest(server.port, '/api/v1/ashare/klines/sh600001?limit=3', {
      headers: { 'x-api-key': tight },
    });
    assert.equal(rest.headers['x-quota-remaining'], '0', 'REST sees the stream’s rows: 6 - 3 - 3');
    const from = c.messages.length;
    const proFrom = pro.messages.length;
    await repoint(link, B);
    server.signal('SIGHUP');
    await server.waitForLog(/reload: now serving/, 15_000);
    const errors = [
      await c.waitFor((m) => m.type === 'error' && m.request.channel === 'bars', 5000, from),
      await c.waitFor((m) => m.type === 'error' && m.request.channel === 'screen', 5000, from),
    ];
    assert.deepEqual(
      errors.map((e) => e.code),
      ['quota_exhausted', 'quota_exhausted'],
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(
      c.messages.slice(from).map((m) => m.type),
      ['error', 'error'],
      'nothing but the two errors',
    );
    assert.equal(await used(tight), 6, 'nothing charged for what was withheld');
    const bars = await pro.waitFor((m) => m.type === 'bars', 5000, proFrom);
    assert.deepEqual(Object.keys(bars.data), ['sh600001']);
    await pro.waitFor((m) => m.type === 'screen', 5000, proFrom);
    c.close();
    pro.close();
  });
});
