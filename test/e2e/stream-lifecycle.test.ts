// The stream's lifecycle on the real server at THREADS=2: sockets on both serving threads receive
// every edition (a reload closes none), screens left keep no run on the main thread, connections
// per key exact across threads, a dead socket closed and a live one kept, a slow consumer closed
// 1013 with memory bounded, and SIGTERM: 1001 to every socket while every HTTP request alongside
// is answered.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { httpRequest } from '../helpers/api-server.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { startRequestStream, waitForAnswers } from '../helpers/request-stream.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { type Message, openStream, type StreamClient, streamUrl, welcomed } from '../helpers/stream-client.js';

const KEYS_JS = fileURLToPath(new URL('../../loaders/cli/keys.js', import.meta.url));
const PLANS = {
  trio: { rpm: 6000, daily_quota: 100000, batch: 5, rows_per_call: 100, connections: 3, subscriptions: 50 },
};
const IDLE_SECONDS = 8;
const SOCKETS = 16;

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
let link: string;
let B: string;
let C: string;
let trio: string;
const sockets: StreamClient[] = [];

before(async () => {
  dir = await tempDir('mdq-stream-life-');
  await writeFile(join(dir.path, 'plans.json'), JSON.stringify(PLANS));
  const A = await fixtureCopy(join(dir.path, 'A'));
  B = await fixtureCopy(join(dir.path, 'B'));
  await appendFile(
    join(B, 'ashare/klines.csv'),
    'sh600001,2025-03-17,6.30,6.50,6.28,6.45,50000,32000000.00,2.157024\n',
  );
  C = await fixtureCopy(join(dir.path, 'C'));
  await appendFile(
    join(C, 'ashare/klines.csv'),
    'sh600001,2025-03-17,6.30,6.50,6.28,6.45,50000,32000000.00,2.157024\nsh600001,2025-03-18,6.45,6.60,6.40,6.58,40000,26000000.00,2.157024\n',
  );
  link = join(dir.path, 'current');
  await symlink(A, link);
  const env = {
    THREADS: '2',
    ACCESS_LOG: 'on',
    STREAM_IDLE_SECONDS: String(IDLE_SECONDS),
    PLANS_FILE: join(dir.path, 'plans.json'),
  };
  server = await startServerProcess({ snapshot: link, state: join(dir.path, 'state'), env });
  const r = spawnSync(process.execPath, [KEYS_JS, 'create', '--plan', 'trio', '--state', join(dir.path, 'state')], {
    encoding: 'utf8',
    env: { ...process.env, STATE_DIR: '', PLANS_FILE: join(dir.path, 'plans.json') },
  });
  assert.equal(r.status, 0, r.stderr);
  trio = r.stdout.trim().split('\n').at(-1)!;
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the server takes the new key within a second
});

after(async () => {
  for (const s of sockets) s.ws.terminate();
  await server?.kill();
  await dir?.cleanup();
});

async function reloadOnto(folder: string): Promise<string> {
  await repoint(link, folder);
  const from = server.log.length;
  server.signal('SIGHUP');
  const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 15_000, from);
  return /now serving (\S+)/.exec(line)![1];
}

/** The serving thread (0: main) whose access line has request id `id`. */
const threadOf = (id: string): number | undefined =>
  (server.logged.find((l) => l.msg === 'access' && l.request_id === id) as { thread?: number } | undefined)?.thread;

test(`THREADS=2: ${SOCKETS} sockets over both threads all receive every edition, its bars and each screen page; a reload closes none`, async () => {
  const key = server.keys.internal!;
  for (let i = 0; i < SOCKETS; i++) {
    const s = await welcomed(server.port, { key, headers: { 'x-request-id': `ws-${i}` } });
    sockets.push(s);
    s.send({ action: 'subscribe', channel: 'editions' });
    s.send({ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sh600001'] });
    s.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'top', query: { limit: 3 } });
    await s.waitFor((m) => m.type === 'screen');
  }
  await new Promise((r) => setTimeout(r, 300)); // the access lines are written per event-loop turn
  const threads = sockets.map((_, i) => threadOf(`ws-${i}`));
  assert.ok(threads.includes(0) && threads.includes(1), `upgrades on both threads (${threads.join(',')})`);
  const froms = sockets.map((s) => s.messages.length);
  for (const [folder, day] of [
    [B, '2025-03-17'],
    [C, '2025-03-18'],
  ] as const) {
    const version = await reloadOnto(folder);
    const got: Message[][] = [];
    for (const [i, s] of sockets.entries()) {
      const edition = await s.waitFor((m) => m.type === 'edition' && m.data_version === version, 5000, froms[i]);
      const bars = await s.waitFor((m) => m.type === 'bars' && m.data_version === version, 5000, froms[i]);
      const page = await s.waitFor((m) => m.type === 'screen' && m.data_version === version, 5000, froms[i]);
      assert.deepEqual(
        bars.data.sh600001.map((r: Message) => r.date),
        [day],
        `socket ${i} (thread ${threads[i]})`,
      );
      got.push([edition, bars, page]);
      froms[i] = s.messages.length;
    }
    for (const g of got) assert.deepEqual(g, got[0], 'every thread sends the same messages');
    const rest = (await httpRequest(server.port, '/api/v1/ashare/screen?limit=3', { headers: { 'x-api-key': key } }))
      .body;
    assert.deepEqual(got[0][2].data, rest.data, 'the page run once on the pool is the page GET /screen answers');
  }
  for (const s of sockets) assert.equal(s.ws.readyState, WebSocket.OPEN, 'no reload closed a socket');
});

test('screens subscribed and left on both threads keep no run on the main thread: only the screen still stood on (mdq_stream_screen_runs)', async () => {
  const runs = async (): Promise<string> =>
    (await httpRequest(server.port, '/metrics')).text
      .split('\n')
      .find((l) => l.startsWith('mdq_stream_screen_runs ')) ?? 'none';
  /** Waits (up to 5 s) until the gauge says `n`: the threads' releases reach the main thread as messages. */
  const keeps = async (n: number, what: string): Promise<void> => {
    const deadline = Date.now() + 5000;
    let line = await runs();
    while (line !== `mdq_stream_screen_runs ${n}`) {
      if (Date.now() > deadline) assert.fail(`${what}: ${line}`);
      await new Promise((r) => setTimeout(r, 50));
      line = await runs();
    }
  };
  // Every socket stands on 'top' (the test before): the runs of the editions before C were released by both threads.
  await keeps(1, "C's run of 'top' alone");
  const threads = sockets.map((_, i) => threadOf(`ws-${i}`));
  const flooders = [threads.indexOf(0), threads.indexOf(1)].map((i) => sockets[i]);
  assert.ok(!flooders.includes(undefined as unknown as StreamClient), `sockets on both threads (${threads.join(',')})`);
  for (const [k, s] of flooders.entries())
    for (let i = 0; i < 40; i++) {
      const from = s.messages.length;
      const query = { min_pe_ratio: String(-1000 - 100 * k - i), limit: 5 };
      s.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'x', query });
      if (i % 2 === 0) await s.waitFor((m) => m.type === 'screen' && m.id === 'x', 5000, from);
      s.send({ action: 'unsubscribe', channel: 'screen', id: 'x' });
      await s.waitFor((m) => m.type === 'unsubscribed', 5000, from);
    }
  await keeps(1, '80 screens left on both threads');
});

test('connections per key are exact across both threads: of 12 opened at once, 3 are welcomed and 9 closed 4008; closed ones give their place back', async () => {
  const opened = await Promise.all(Array.from({ length: 12 }, () => openStream(server.port, { key: trio })));
  await new Promise((r) => setTimeout(r, 1000)); // each is welcomed or closed by then
  const outcomes = await Promise.all(
    opened.map(async (s) =>
      s.messages.some((m) => m.type === 'welcome') ? 'welcome' : await s.closed.then((c) => `${c.code} ${c.reason}`),
    ),
  );
  assert.deepEqual(
    outcomes.sort(),
    [...Array(9).fill('4008 too_many_connections'), ...Array(3).fill('welcome')],
    outcomes.join(', '),
  );
  for (const s of opened) s.close();
  await Promise.all(opened.map((s) => s.closed));
  await new Promise((r) => setTimeout(r, 200));
  const again = await Promise.all(Array.from({ length: 3 }, () => welcomed(server.port, { key: trio })));
  for (const s of again) s.close();
});

// uWS checks idleness on a 4 s tick: a silent socket is pinged at a tick and closed at a later one without a pong.
test(`an idle socket that answers pings stays open; one that does not is closed within ${IDLE_SECONDS} s or so`, async () => {
  const key = server.keys.pro!;
  const live = await welcomed(server.port, { key });
  let pings = 0;
  live.ws.on('ping', () => pings++);
  const dead = new WebSocket(streamUrl(server.port), { headers: { 'x-api-key': key }, autoPong: false });
  const started = performance.now();
  const deadClosed = new Promise<number>((resolve) => dead.on('close', (code) => resolve(code)));
  await deadClosed;
  const after = (performance.now() - started) / 1000;
  assert.ok(after >= IDLE_SECONDS / 2 - 1 && after <= IDLE_SECONDS + 5, `closed after ${after.toFixed(1)} s`);
  await new Promise((r) => setTimeout(r, 1000));
  assert.ok(pings >= 1, `the live one was pinged (${pings})`);
  assert.equal(live.ws.readyState, WebSocket.OPEN, 'the live one stays');
  live.close();
});

test('a client that stops reading is closed 1013 once more than 8 MiB wait unsent; the server keeps its memory bounded', async () => {
  const rssBefore = (await server.rss())!;
  const slow = await welcomed(server.port, { key: server.keys.internal! });
  // Stop reading; keep asking: every screen subscribed sends its page (~8 KB with every column).
  (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  const asks = 20_000;
  for (let i = 0; i < asks; i++) {
    slow.send({
      action: 'subscribe',
      channel: 'screen',
      market: 'ashare',
      id: `s${i}`,
      query: { fields: '*', limit: 20 },
    });
    if (i % 500 === 499) await new Promise((r) => setTimeout(r, 20));
  }
  // Read again as soon as the server has closed it (a client that never reads again cannot read
  // the close frame either: past the idle timeout the server drops the connection and its bytes).
  const closes = async (): Promise<number> =>
    Number(
      /^mdq_stream_backpressure_closes_total (\d+)$/m.exec((await httpRequest(server.port, '/metrics')).text)?.[1],
    );
  for (let tries = 0; (await closes()) < 1; tries++) {
    assert.ok(tries < 200, 'the server closed the socket within 10 s of the last ask');
    await new Promise((r) => setTimeout(r, 50));
  }
  const rssAfter = (await server.rss())!;
  (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  const closed = await slow.closed;
  assert.deepEqual(closed, { code: 1013, reason: 'backpressure' });
  const received = slow.frames.reduce((n, f) => n + f.data.length, 0);
  const page = slow.frames.find((f) => JSON.parse(f.data.toString()).type === 'screen')!.data.length;
  console.log(
    `# asked for ~${((asks * page) / 2 ** 20).toFixed(0)} MiB of pages; received ${(received / 2 ** 20).toFixed(1)} MiB before 1013; server RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MiB`,
  );
  assert.ok(asks * page > 100 * 2 ** 20, 'more than 100 MiB was asked for');
  assert.ok(
    received > 8 * 2 ** 20 && received < 24 * 2 ** 20,
    `received ${received} bytes: 8 MiB and what the kernel held`,
  );
  assert.ok(rssAfter - rssBefore < 64 * 2 ** 20, `RSS grew ${((rssAfter - rssBefore) / 2 ** 20).toFixed(0)} MiB`);
  assert.equal(await closes(), 1, 'counted in /metrics');
});

test('SIGTERM: every socket on both threads is sent 1001 shutting_down; every HTTP request alongside is answered (200 or 503) or refused a new connection; exit 0', async () => {
  const stream = startRequestStream({
    port: server.port,
    connections: 4,
    paths: ['/api/v1/ashare/klines/sh600001?limit=5', '/api/v1/markets'],
    headers: { 'x-api-key': server.keys.internal! },
    maxPerConnection: 20_000,
    stopWhenRefused: true,
  });
  await waitForAnswers(stream, 100);
  const closes = sockets.map((s) => s.closed);
  server.signal('SIGTERM');
  const codes = await Promise.all(closes);
  assert.deepEqual(
    codes.map((c) => `${c.code} ${c.reason}`),
    Array(SOCKETS).fill('1001 shutting_down'),
  );
  const exit = await server.exited;
  assert.equal(exit.code, 0, server.log.slice(-5).join('\n'));
  await stream.done;
  const outcomes = stream.records.flat().map((r) => r.exchange);
  const bad = outcomes.filter(
    (ex) => ex.kind !== 'refused' && !(ex.kind === 'response' && (ex.status === 200 || ex.status === 503)),
  );
  assert.deepEqual(bad.slice(0, 3), [], `${bad.length} of ${outcomes.length} requests not answered whole`);
});
