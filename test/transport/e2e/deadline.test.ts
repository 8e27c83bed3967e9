// A request that outruns the deadline gets a 503 problem, never a hung socket; the server serves on.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from '../../helpers/api-server.js';

test('a pool screen that outlasts a 0 ms deadline is answered 503 deadline_exceeded with Retry-After', async (t) => {
  const server = await startTestServer({ pool: true, minScreenRows: 0, deadlineMs: 0 });
  t.after(() => server.close());
  const res = await server.get('/api/v1/ashare/screen?limit=2', { key: server.keys.internal });
  assert.equal(res.status, 503);
  assert.equal(res.body.code, 'deadline_exceeded');
  assert.equal(res.headers['retry-after'], '1');
  assert.equal(res.headers['content-type'], 'application/problem+json');
  const sync = await server.get('/api/v1/markets', { key: server.keys.internal });
  assert.equal(sync.status, 200, 'synchronous routes are not affected');
});
