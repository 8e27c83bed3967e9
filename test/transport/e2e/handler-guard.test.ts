// One guard around every handler registered on the server (the API's, the service paths', the
// dashboard's, the forwarded paths'): a handler that throws is a logged 500 internal_error, not
// the end of the process (uWS.js aborts when an exception leaves a handler).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { Guard } from '../../../transport/guard/guard.js';
import { Problem } from '../../../transport/problem.js';
import { type RunningServer, startServer } from '../../../transport/server.js';
import { FIXTURE, httpRequest } from '../../helpers/api-server.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

const logged: { fields: Record<string, unknown>; msg: string }[] = [];
let server: RunningServer;
let cleanup: () => Promise<void>;

before(async () => {
  const dir = await tempDir('mdq-guard-');
  cleanup = dir.cleanup;
  await storeEdition(FIXTURE, dir.path, { threads: 0 });
  const dataset = (await openCurrentDataset(dir.path))!;
  const logger = {
    info: () => {},
    error: (fields: object, msg: string) => void logged.push({ fields: fields as Record<string, unknown>, msg }),
  };
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    guard: new Guard('UTC'),
    state: { dataset, draining: false },
    logger,
    mount: (app) => {
      app.get('/boom', () => {
        throw new Error('a bug in a handler');
      });
      app.post('/boom/*', () => {
        throw new Problem('invalid_parameter', 'a problem thrown, not answered');
      });
      app.any('/answered-then-boom', (res) => {
        res.end('answered');
        throw new Error('after the answer');
      });
      app.get('/pending-then-boom', (res) => {
        res.onAborted(() => {});
        throw new TypeError('after an abort handler, before any answer');
      });
    },
  });
});
after(async () => {
  server.close();
  await cleanup();
});

test('a handler that throws an Error: 500 internal_error problem, the stack logged with the request id', async () => {
  const r = await httpRequest(server.port, '/boom', { headers: { 'x-request-id': 'boom-1' } });
  assert.equal(r.status, 500);
  assert.equal(r.headers['content-type'], 'application/problem+json');
  assert.deepEqual([r.body.code, r.body.instance], ['internal_error', 'boom-1']);
  assert.equal(r.headers['x-request-id'], 'boom-1');
  const line = logged.find((l) => l.fields.request_id === 'boom-1');
  assert.ok(line !== undefined, 'logged');
  assert.match(String((line.fields.err as { stack: string }).stack), /a bug in a handler/);
  assert.equal(line.fields.route, '/boom');
});

test('a handler that throws a Problem without answering: still a 500 (a handler answers its problems itself)', async () => {
  const r = await httpRequest(server.port, '/boom/x', { method: 'POST', body: 'x' });
  assert.deepEqual([r.status, r.body.code], [500, 'internal_error']);
});

test('a handler that answered, then threw: the answer stands, nothing is written twice', async () => {
  const r = await httpRequest(server.port, '/answered-then-boom');
  assert.deepEqual([r.status, r.text], [200, 'answered']);
  assert.ok(logged.some((l) => /after the answer/.test(String((l.fields.err as { stack: string }).stack))));
});

test('a handler that threw after registering onAborted is answered 500, and the server goes on serving', async () => {
  const r = await httpRequest(server.port, '/pending-then-boom');
  assert.deepEqual([r.status, r.body.code], [500, 'internal_error']);
  for (let i = 0; i < 3; i++) assert.equal((await httpRequest(server.port, '/boom')).status, 500);
  assert.equal((await httpRequest(server.port, '/healthz')).status, 200, 'still serving');
});
