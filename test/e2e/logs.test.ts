// The real server's log: JSON lines on stdout with time, level and msg; the
// access line of a request carries its id; keys are shown once on stderr and never logged.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FIXTURE } from '../helpers/api-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
before(async () => {
  dir = await tempDir('mdq-logs-');
  server = await startServerProcess({
    snapshot: FIXTURE,
    state: dir.path,
    env: { ACCESS_LOG: '1', METRICS: '1', THREADS: '2' },
  });
});
after(async () => {
  await server.kill();
  await dir.cleanup();
});

test('stdout is JSON lines with an ISO time, a level name and a message; the access line names the request', async () => {
  const pro = server.keys.pro!;
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/ashare/klines/sh600001?limit=2`, {
    headers: { 'x-api-key': pro, 'x-request-id': 'desk-7' },
  });
  assert.equal(res.status, 200);
  const body = await res.arrayBuffer();
  await server.waitForLog(/"request_id":"desk-7"/, 5000);
  server.signal('SIGTERM');
  await server.exited;
  assert.ok(server.logged.length >= 3, 'start, serving, access, drain lines');
  for (const line of server.logged) {
    assert.equal(line.unparsed, undefined, `a JSON line: ${String(line.unparsed)}`);
    assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(['info', 'warn', 'error'].includes(String(line.level)), `a level name: ${line.level}`);
    assert.equal(typeof line.msg, 'string');
  }
  const access = server.logged.filter((l) => l.msg === 'access');
  assert.equal(access.length, 1, 'one access line for the one API request');
  const { time, level, us, thread, ...fields } = access[0];
  assert.ok(thread === 0 || thread === 1, `the serving thread that answered: ${String(thread)}`);
  assert.deepEqual(fields, {
    request_id: 'desk-7',
    route: '/api/v1/:market/klines/:symbol',
    status: 200,
    plan: 'pro',
    key_id: pro.split('_')[1],
    rows: 2,
    bytes: body.byteLength,
    msg: 'access',
  });
  assert.ok(
    server.logged.some((l) => /drained; bye/.test(String(l.msg))),
    'the drain is logged, flushed before exit',
  );
  const stdout = server.logged.map((l) => JSON.stringify(l)).join('\n');
  for (const key of Object.values(server.keys)) assert.ok(!stdout.includes(key!), 'no key in the log');
  assert.equal(Object.keys(server.keys).length, 4, 'the first start showed one key per plan (on stderr)');
});
