// A data route's errors through the exchange's one error handler: a plain Error thrown by a route
// is a logged 500 internal_error, a Problem a route throws is answered as itself, a promise a route
// returns that rejects (a pool worker's failure) is a logged 500; the server serves on after each.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { errorLog, withFaultyRead } from '../../helpers/faults.js';

const { logger, lines: logged, stackOf } = errorLog();
let server: TestServer;

before(async () => {
  // Screens on the pool, nothing cached: each request runs its route.
  server = await startTestServer({ pool: true, minScreenRows: 0, responseCache: null, logger });
});
after(() => server.close());

test('a route that throws a plain Error: 500 internal_error with the request id, the stack logged, no stack answered', async () => {
  // A bug stand-in: the macro route's read of the data throws.
  await withFaultyRead(server.state, 'macro', 'a bug in a route', async () => {
    const r = await server.get('/api/v1/macro?indicator=gdp', { headers: { 'x-request-id': 'route-boom-1' } });
    assert.equal(r.status, 500);
    assert.equal(r.headers['content-type'], 'application/problem+json');
    assert.deepEqual([r.body.code, r.body.instance], ['internal_error', 'route-boom-1']);
    assert.doesNotMatch(r.text, /a bug in a route/, 'the answer holds no stack or message');
    assert.match(stackOf('route-boom-1'), /a bug in a route/);
  });
  assert.equal((await server.get('/api/v1/macro?indicator=gdp')).status, 200, 'serving on');
});

test('a route that throws a Problem: answered as that problem (status, code, param), nothing logged as an error', async () => {
  const before = logged.length;
  const r = await server.get('/api/v1/ashare/klines/sh999999', { headers: { 'x-request-id': 'route-problem-1' } });
  assert.equal(r.status, 404);
  assert.deepEqual([r.body.code, r.body.instance], ['unknown_symbol', 'route-problem-1']);
  assert.equal(logged.length, before, 'a problem is an answer, not an error of the server');
});

test('a route whose promise rejects (the pool fails): 500 internal_error, logged, and the next screen is served', async () => {
  const kernels = server.kernels!;
  const screen = kernels.screen;
  kernels.screen = () => Promise.reject(new Error('a pool worker failed'));
  try {
    const r = await server.get('/api/v1/ashare/screen?sort=pe_ratio', {
      headers: { 'x-request-id': 'route-reject-1' },
    });
    assert.equal(r.status, 500);
    assert.deepEqual([r.body.code, r.body.instance], ['internal_error', 'route-reject-1']);
    assert.match(stackOf('route-reject-1'), /a pool worker failed/);
  } finally {
    kernels.screen = screen;
  }
  const next = await server.get('/api/v1/ashare/screen?sort=pe_ratio');
  assert.equal(next.status, 200, next.text);
  assert.equal((await server.get('/healthz', { key: null })).status, 200);
});
