// Every kind of request answers a thrown value through its exchange's one error handler: the
// service paths and the dashboard as the data routes do (route-errors.test.ts). A plain Error is a
// 500 internal_error whose stack is logged with the request id and never answered, a Problem is
// answered as itself and not logged, a promise that rejects is a logged 500; each server serves on.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { type ErrorLine, errorLog, stackIn, withFaultyRead } from '../../helpers/faults.js';
import { type AdminServer, startAdminServer } from '../admin/admin-server.js';

const loggedFor = (lines: ErrorLine[], requestId: string): ErrorLine | undefined =>
  lines.find((l) => l.fields.request_id === requestId);

describe('service paths', () => {
  const { logger, lines: logged } = errorLog();
  let server: TestServer;
  let metricsBroken = false;
  let openapiBroken = false;
  before(async () => {
    server = await startTestServer({
      logger,
      openapi: () => {
        if (openapiBroken) throw new Error('a bug behind the document');
        return JSON.stringify({ openapi: '3.1.0' });
      },
      metrics: {
        reloads: () => {
          if (metricsBroken) throw new Error('a broken metrics source');
          return { counts: {}, lastSeconds: null };
        },
        poolQueue: () => 0,
      },
    });
  });
  after(() => server.close());

  test('the OpenAPI document whose making throws a plain Error: 500 internal_error, the stack logged, not answered', async () => {
    openapiBroken = true;
    let r: Awaited<ReturnType<TestServer['get']>>;
    try {
      r = await server.get('/api/v1/openapi.json', { key: null, headers: { 'x-request-id': 'svc-boom-1' } });
    } finally {
      openapiBroken = false;
    }
    assert.equal(r.status, 500);
    assert.equal(r.headers['content-type'], 'application/problem+json');
    assert.deepEqual([r.body.code, r.body.instance], ['internal_error', 'svc-boom-1']);
    assert.equal(r.headers['x-request-id'], 'svc-boom-1');
    assert.doesNotMatch(r.text, /a bug behind/);
    const line = loggedFor(logged, 'svc-boom-1');
    assert.equal(line?.fields.route, '/api/v1/openapi.json');
    assert.match(stackIn(line), /a bug behind the document/);
    const again = await server.get('/api/v1/openapi.json', { key: null });
    assert.deepEqual([again.status, again.body.openapi], [200, '3.1.0'], 'serving on');
  });

  test('/readyz while draining throws its Problem: 503 shutting_down with Retry-After, nothing logged', async () => {
    const before = logged.length;
    server.state.draining = true;
    let r: Awaited<ReturnType<TestServer['get']>>;
    try {
      r = await server.get('/readyz', { key: null, headers: { 'x-request-id': 'svc-problem-1' } });
    } finally {
      server.state.draining = false;
    }
    assert.equal(r.status, 503);
    assert.deepEqual([r.body.code, r.body.instance], ['shutting_down', 'svc-problem-1']);
    assert.ok(Number(r.headers['retry-after']) >= 1);
    assert.equal(logged.length, before);
    assert.equal((await server.get('/readyz', { key: null })).status, 200, 'serving on');
  });

  test('/metrics whose exposition rejects: 500 internal_error, logged under /metrics', async () => {
    metricsBroken = true;
    let r: Awaited<ReturnType<TestServer['get']>>;
    try {
      r = await server.get('/metrics', { key: null, headers: { 'x-request-id': 'svc-reject-1' } });
    } finally {
      metricsBroken = false;
    }
    assert.equal(r.status, 500);
    assert.deepEqual([r.body.code, r.body.instance], ['internal_error', 'svc-reject-1']);
    const line = loggedFor(logged, 'svc-reject-1');
    assert.equal(line?.fields.route, '/metrics');
    assert.match(stackIn(line), /a broken metrics source/);
    const again = await server.get('/metrics', { key: null });
    assert.equal(again.status, 200, 'serving on');
    assert.match(again.text, /mdq_http_requests_total\{route="\/metrics",status="500",plan="none"\} 1/);
  });
});

// A time limit: left unanswered, the request would hang rather than fail.
test('a /metrics answer that throws again while answering its error: the connection is closed, both logged, the process serves on', {
  timeout: 20_000,
}, async () => {
  const { logger, lines: logged } = errorLog();
  const server = await startTestServer({
    logger,
    metrics: { reloads: () => ({ counts: {}, lastSeconds: null }), poolQueue: () => 0 },
  });
  try {
    // The exposition reads the data version, and so do the problem's headers: both throw.
    await withFaultyRead(server.state, 'version', 'a version that cannot be read', () =>
      assert.rejects(server.get('/metrics', { key: null, headers: { 'x-request-id': 'svc-twice-1' } })),
    );
    assert.ok(logged.filter((l) => /a version that cannot be read/.test(stackIn(l))).length >= 2, 'both throws logged');
    assert.equal((await server.get('/metrics', { key: null })).status, 200, 'serving on');
  } finally {
    await server.close();
  }
});

describe('the dashboard', () => {
  const { logger, lines: logged } = errorLog();
  let admin: AdminServer;
  let routesBroken = false;
  before(async () => {
    admin = await startAdminServer({
      logger,
      routes: () => {
        if (routesBroken) throw new Error('a bug behind the usage page');
        return [];
      },
      reload: { run: () => Promise.reject(new Error('the reloader broke')), progress: () => null },
    });
  });
  after(() => admin.close());

  test('a page whose read throws a plain Error: 500 internal_error, logged with the route, the security headers kept', async () => {
    const op = await admin.signIn();
    routesBroken = true;
    let r: Awaited<ReturnType<AdminServer['call']>>;
    try {
      r = await admin.call('/admin/api/usage', { cookie: op.cookie, headers: { 'x-request-id': 'dash-boom-1' } });
    } finally {
      routesBroken = false;
    }
    assert.equal(r.status, 500);
    assert.deepEqual([r.body.code, r.body.instance], ['internal_error', 'dash-boom-1']);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['x-frame-options'], 'DENY');
    assert.doesNotMatch(r.text, /a bug behind/);
    const line = loggedFor(logged, 'dash-boom-1');
    assert.equal(line?.fields.route, '/admin/api/usage');
    assert.match(stackIn(line), /a bug behind the usage page/);
    assert.equal((await admin.call('/admin/api/usage', { cookie: op.cookie })).status, 200, 'serving on');
  });

  test('a route that throws its Problem (no session): 401 unauthorized, nothing logged', async () => {
    const before = logged.length;
    const r = await admin.call('/admin/api/usage', { headers: { 'x-request-id': 'dash-problem-1' } });
    assert.deepEqual([r.status, r.body.code, r.body.instance], [401, 'unauthorized', 'dash-problem-1']);
    assert.equal(logged.length, before);
  });

  test('a write whose promise rejects (the reload): 500 internal_error, logged, and the dashboard answers on', async () => {
    const op = await admin.signIn();
    const r = await admin.call('/admin/api/reload', {
      method: 'POST',
      cookie: op.cookie,
      csrf: op.csrf,
      body: {},
      headers: { 'x-request-id': 'dash-reject-1' },
    });
    assert.deepEqual([r.status, r.body.code, r.body.instance], [500, 'internal_error', 'dash-reject-1']);
    assert.match(stackIn(loggedFor(logged, 'dash-reject-1')), /the reloader broke/);
    assert.equal((await admin.call('/admin/api/usage', { cookie: op.cookie })).status, 200);
  });
});
