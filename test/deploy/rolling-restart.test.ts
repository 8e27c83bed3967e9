// Two real instances behind deploy/nginx.conf, sharing limits and keys through one real Redis:
// a steady stream of API requests through nginx sees no failure while one instance reloads
// (SIGHUP) and the other drains (SIGTERM), exits and starts again on its port; a free key's
// limits hold across both.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURE, httpRequest } from '../helpers/api-server.js';
import { freePort, NGINX, startNginx } from '../helpers/nginx.js';
import { REDIS_SERVER, startRedis } from '../helpers/redis.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { needsCommand } from '../helpers/system-command.js';

/** Clients sending one request after another, each on its own keep-alive connection to nginx. */
const CLIENTS = 4;
const PATH = '/api/v1/ashare/klines/sh600001?limit=5';
/** The free key's requests (told apart from the stream's in nginx's access log by their limit). */
const FREE_PATH = '/api/v1/ashare/klines/sh600001?limit=1';

interface Stream {
  /** Statuses (0: a connection error) in the order they arrived. */
  readonly statuses: number[];
  /** Bodies of the answers that were not 200, for the failure message. */
  readonly failures: string[];
  stop(): Promise<void>;
}

function streamRequests(port: number, key: string): Stream {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const statuses: number[] = [];
  const failures: string[] = [];
  let running = true;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: PATH, agent, headers: { 'x-api-key': key } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          statuses.push(res.statusCode ?? 0);
          if (res.statusCode !== 200) failures.push(`${res.statusCode} ${body.slice(0, 300)}`);
          resolve();
        });
      });
      req.on('error', (error) => {
        statuses.push(0);
        failures.push(`connection: ${error.message}`);
        resolve();
      });
      req.end();
    });
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (running) await one();
  });
  return {
    statuses,
    failures,
    async stop() {
      running = false;
      await Promise.all(clients);
      agent.destroy();
    },
  };
}

const requestsSoFar = (s: Stream): number => s.statuses.length;
async function moreRequests(s: Stream, n: number): Promise<void> {
  const until = requestsSoFar(s) + n;
  const deadline = Date.now() + 10_000;
  while (requestsSoFar(s) < until) {
    if (Date.now() > deadline) throw new Error(`the stream stalled at ${requestsSoFar(s)} requests`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('through nginx, two instances on one Redis: 0 failed requests while one reloads and the other is stopped and started again; a free key gets 30 requests a minute across both', async (t) => {
  if (!needsCommand(t, NGINX, 'nginx', ['-v']) || !needsCommand(t, REDIS_SERVER, 'redis-server')) return;
  const dir = await tempDir('mdq-rolling-');
  const redis = await startRedis();
  const started: ServerProcess[] = [];
  t.after(async () => {
    for (const s of started) await s.kill();
    await redis.close();
    await dir.cleanup();
  });
  // Each instance its own state folder; B takes A's keys from Redis.
  const stateA = join(dir.path, 'state-a');
  const stateB = join(dir.path, 'state-b');
  await mkdir(stateA);
  await mkdir(stateB);
  const env = { REDIS_URL: redis.url, THREADS: '2' };
  const [portA, portB] = [await freePort(), await freePort()];
  const a = await startServerProcess({ snapshot: FIXTURE, state: stateA, port: portA, env });
  started.push(a);
  let b = await startServerProcess({ snapshot: FIXTURE, state: stateB, port: portB, env });
  started.push(b);
  const nginx = await startNginx([portA, portB]);
  t.after(nginx.stop);

  // The free key through nginx, which spreads its requests over both instances (first: nginx
  // would send everything to A for a few seconds after B's restart).
  const free = a.keys.free!;
  const statuses: number[] = [];
  for (let i = 1; i <= 31; i++)
    statuses.push((await httpRequest(nginx.port, FREE_PATH, { headers: { 'x-api-key': free } })).status);
  assert.deepEqual(statuses, [...Array(30).fill(200), 429], 'the 31st request of the minute is refused');

  const stream = streamRequests(nginx.port, a.keys.internal!);
  try {
    await moreRequests(stream, 200);
    // A reloads while B drains and exits.
    const reloadFrom = a.log.length;
    a.signal('SIGHUP');
    b.signal('SIGTERM');
    await a.waitForLog(/reload: (unchanged|now serving)/, 10_000, reloadFrom);
    assert.equal((await b.exited).code, 0, 'B drained and exited 0');
    await moreRequests(stream, 200); // A alone
    b = await startServerProcess({ snapshot: FIXTURE, state: stateB, port: portB, env });
    started.push(b);
    await moreRequests(stream, 200);
  } finally {
    await stream.stop();
  }
  assert.deepEqual(stream.failures, [], `${stream.failures.length} of ${stream.statuses.length} requests failed`);
  assert.ok(stream.statuses.length >= 600);

  // Both instances answered the stream and the free key (nginx's access log names the upstream of each request).
  const log = await nginx.accessLog();
  const upstreams = (pattern: RegExp): Set<string> =>
    new Set(
      log
        .split('\n')
        .filter((l) => pattern.test(l))
        .map((l) => /127\.0\.0\.1:\d+(?= \d{3} )/.exec(l)?.[0] ?? 'none'),
    );
  for (const [what, pattern] of [
    ['the stream', /klines\/sh600001\?limit=5 /],
    ['the free key', /klines\/sh600001\?limit=1 /],
  ] as const) {
    const seen = upstreams(pattern);
    assert.ok(
      seen.has(`127.0.0.1:${portA}`) && seen.has(`127.0.0.1:${portB}`),
      `${what}: upstreams seen: ${[...seen].join(', ')}`,
    );
  }
});
