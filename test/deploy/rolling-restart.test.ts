// Two real instances behind deploy/nginx.conf: a steady stream of API requests through nginx
// sees no failure while one instance reloads (SIGHUP) and the other drains (SIGTERM), exits
// and starts again on its port.

import assert from 'node:assert/strict';
import { cp, mkdir } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURE } from '../helpers/api-server.js';
import { freePort, NGINX, startNginx } from '../helpers/nginx.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { needsCommand } from '../helpers/system-command.js';

/** Clients sending one request after another, each on its own keep-alive connection to nginx. */
const CLIENTS = 4;
const PATH = '/api/v1/ashare/klines/sh600001?limit=5';

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

test('through nginx, two instances: 0 failed requests while one reloads and the other is stopped and started again', async (t) => {
  if (!needsCommand(t, NGINX, 'nginx', ['-v'])) return;
  const dir = await tempDir('mdq-rolling-');
  const started: ServerProcess[] = [];
  t.after(async () => {
    for (const s of started) await s.kill();
    await dir.cleanup();
  });
  // One key table for both: the first instance's state folder (keys, stored snapshot) copied for the second.
  const stateA = join(dir.path, 'state-a');
  const stateB = join(dir.path, 'state-b');
  await mkdir(stateA);
  const first = await startServerProcess({ snapshot: FIXTURE, state: stateA });
  started.push(first);
  const key = first.keys.internal!;
  first.signal('SIGTERM');
  assert.equal((await first.exited).code, 0);
  await cp(stateA, stateB, { recursive: true });

  const [portA, portB] = [await freePort(), await freePort()];
  const a = await startServerProcess({ snapshot: FIXTURE, state: stateA, port: portA });
  started.push(a);
  let b = await startServerProcess({ snapshot: FIXTURE, state: stateB, port: portB });
  started.push(b);
  const nginx = await startNginx([portA, portB]);
  t.after(nginx.stop);

  const stream = streamRequests(nginx.port, key);
  try {
    await moreRequests(stream, 200);
    // A reloads while B drains and exits.
    const reloadFrom = a.log.length;
    a.signal('SIGHUP');
    b.signal('SIGTERM');
    await a.waitForLog(/reload: (unchanged|now serving)/, 10_000, reloadFrom);
    assert.equal((await b.exited).code, 0, 'B drained and exited 0');
    await moreRequests(stream, 200); // A alone
    b = await startServerProcess({ snapshot: FIXTURE, state: stateB, port: portB });
    started.push(b);
    await moreRequests(stream, 200);
  } finally {
    await stream.stop();
  }
  assert.deepEqual(stream.failures, [], `${stream.failures.length} of ${stream.statuses.length} requests failed`);
  assert.ok(stream.statuses.length >= 600);
  // Both instances answered through nginx (its access log names the upstream of each request).
  const upstreams = new Set((await nginx.accessLog()).match(/127\.0\.0\.1:\d+(?= \d{3} )/g));
  assert.ok(upstreams.has(`127.0.0.1:${portA}`) && upstreams.has(`127.0.0.1:${portB}`), `upstreams seen: ${[...upstreams].join(', ')}`);
});
