// Sockets that open /api/v1/stream without a key and wait for their `auth` message, on a THREADS=1
// server: at most MAX_AWAITING_AUTH at once (each may hold a message coming in, and nobody vouched
// for them); one more is closed 1013 too_many_awaiting_auth at once; one that authenticates, or
// closes, gives its place back.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CLOSE, MAX_AWAITING_AUTH } from '../../transport/stream/protocol.js';
import { FIXTURE } from '../helpers/api-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { openStream, type StreamClient } from '../helpers/stream-client.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
const clients: StreamClient[] = [];

before(async () => {
  dir = await tempDir('mdq-auth-wait-');
  server = await startServerProcess({ snapshot: FIXTURE, state: dir.path, env: { THREADS: '1' } });
});

after(async () => {
  for (const c of clients) c.close();
  await server?.kill();
  await dir?.cleanup();
});

/** Whether `c` is still open `ms` after now. */
const openAfter = (c: StreamClient, ms: number): Promise<boolean> =>
  Promise.race([c.closed.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), ms))]);

test(`${MAX_AWAITING_AUTH} sockets may wait for their auth message; one more is closed ${CLOSE.authBusy.code} ${CLOSE.authBusy.reason}; an authenticated or closed one gives its place back`, async () => {
  // Opened together: each waits AUTH_WITHIN_MS (5 s) at most, and all of this runs well within it.
  clients.push(...(await Promise.all(Array.from({ length: MAX_AWAITING_AUTH }, () => openStream(server.port)))));
  const over = await openStream(server.port);
  assert.deepEqual(await over.closed, { code: CLOSE.authBusy.code, reason: CLOSE.authBusy.reason });
  assert.equal(await openAfter(clients[0], 200), true, 'the ones waiting stay open');

  // One authenticates: welcomed, and its place is free for the next.
  clients[0].send({ action: 'auth', key: server.keys.pro! });
  await clients[0].waitFor((m) => m.type === 'welcome');
  const next = await openStream(server.port);
  clients.push(next);
  assert.equal(await openAfter(next, 300), true, 'a place freed by an auth');

  // One closes: its place is free too.
  clients[1].close();
  await clients[1].closed;
  const another = await openStream(server.port);
  clients.push(another);
  assert.equal(await openAfter(another, 300), true, 'a place freed by a close');
  const full = await openStream(server.port);
  assert.equal((await full.closed).code, CLOSE.authBusy.code, 'full again');
});
