// A first end-to-end pass: the server answers, authenticates and stamps the data version.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';

let server: TestServer;
before(async () => (server = await startTestServer()));
after(() => server.close());

test('GET /healthz answers ok with the data version, without a key', async () => {
  const res = await server.get('/healthz', { key: null });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok', data_version: server.dataset.version, usage_durable: true });
  assert.equal(res.headers['x-data-version'], server.dataset.version);
});

test('a request without a key is a 401 problem', async () => {
  const res = await server.get('/api/v1/markets', { key: null });
  assert.equal(res.status, 401);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.equal(res.body.code, 'unauthorized');
});

test('GET /markets lists the six markets in the spec order', async () => {
  const res = await server.get('/api/v1/markets');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual(
    res.body.data.map((m: { market: string }) => m.market),
    ['ashare', 'hkstock', 'usstock', 'crypto', 'indices', 'etfs'],
  );
});
