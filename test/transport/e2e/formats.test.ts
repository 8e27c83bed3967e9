// Formats: content types, the problem body, X-Data-Version on every response, nulls for missing values.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiResponse, TestServer } from '../../helpers/api-server.js';
import { drainBucket, ok, startAnswerServer, startLimitServer } from '../../helpers/e2e.js';
import { MANIFEST_ID } from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json';
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
};
/** The problem body's keys in order; `instance` (the request id) always comes last. */
const PROBLEM_KEYS = ['type', 'title', 'status', 'code', 'detail', 'param', 'suggestions', 'instance'];

const SUCCESS_PATHS = [
  '/api/v1/markets',
  '/api/v1/macro',
  '/api/v1/quota',
  '/api/v1/ashare/symbols',
  '/api/v1/ashare/klines/sh600001?limit=2',
  '/api/v1/ashare/klines?symbols=sh600001&limit=2',
  '/api/v1/ashare/detail/sh600001',
  '/api/v1/ashare/detail?symbols=sh600001',
  '/api/v1/ashare/screen',
];

/** One request of every error kind but 429 (which needs its own key state), with the status it must have. */
const ERRORS: [path: string, options: Parameters<TestServer['get']>[1], status: number][] = [
  ['/api/v1/ashare/klines/sh600001?limit=0', {}, 400],
  ['/api/v1/nasdaq/screen', {}, 400],
  ['/api/v1/ashare/detail?symbols=a,b,c,d,e,f', { key: null }, 401],
  ['/api/v1/markets', { key: null }, 401],
  ['/api/v1/nothing', {}, 404],
  ['/elsewhere', { key: null }, 404],
  ['/api/v1/ashare/detail/nope', {}, 404],
  ['/api/v1/markets', { method: 'POST' }, 405],
];

function checkProblemBody(res: ApiResponse, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: status`);
  const keys = Object.keys(res.body);
  assert.deepEqual(
    keys,
    PROBLEM_KEYS.filter((k) => keys.includes(k)),
    `${what}: keys in the order type, title, status, code, detail, param, suggestions, instance`,
  );
  assert.deepEqual(
    keys.slice(0, 5),
    PROBLEM_KEYS.slice(0, 5),
    `${what}: type, title, status, code and detail are all there`,
  );
  assert.equal(keys.at(-1), 'instance', `${what}: instance is there, last`);
  assert.equal(res.body.instance, res.headers['x-request-id'], `${what}: instance is the X-Request-Id of the response`);
  assert.equal(res.body.type, 'about:blank', `${what}: type about:blank`);
  assert.equal(res.body.title, TITLES[status], `${what}: title of the status`);
  assert.equal(res.body.status, status, `${what}: status in the body`);
  assert.equal(typeof res.body.code, 'string', `${what}: code is a string`);
  assert.ok(typeof res.body.detail === 'string' && res.body.detail.length > 0, `${what}: detail is a non-empty string`);
  if ('param' in res.body)
    assert.ok(typeof res.body.param === 'string' && res.body.param.length > 0, `${what}: param is a non-empty string`);
}

test('every successful answer is application/json; charset=utf-8', async () => {
  for (const path of SUCCESS_PATHS) {
    const res = await server.get(path);
    assert.equal(res.status, 200, `${path} answers`);
    assert.equal(res.headers['content-type'], JSON_TYPE, `${path}: JSON content type`);
  }
});

test('every error is application/problem+json', async () => {
  for (const [path, options, status] of ERRORS) {
    const res = await server.get(path, options);
    assert.equal(res.status, status, `${path}: status ${status}`);
    assert.equal(res.headers['content-type'], PROBLEM_TYPE, `${path}: problem content type`);
  }
});

test('every problem body is {type: about:blank, title, status, code, detail[, param][, suggestions], instance}', async () => {
  for (const [path, options, status] of ERRORS) checkProblemBody(await server.get(path, options), status, path);
});

test('a parameter problem names the parameter in param', async () => {
  const res = await server.get('/api/v1/ashare/klines/sh600001?fields=foo');
  checkProblemBody(res, 400, 'fields=foo');
  assert.deepEqual(
    Object.keys(res.body),
    PROBLEM_KEYS.filter((k) => k !== 'suggestions'),
    'all seven keys',
  );
  assert.equal(res.body.param, 'fields', 'param is fields');
});

test('a 429 is a problem+json body like any other error', async (t) => {
  const { server: s } = await startLimitServer(t);
  await drainBucket(s, s.keys.free);
  const res = await s.get('/api/v1/markets', { key: s.keys.free });
  assert.equal(res.headers['content-type'], PROBLEM_TYPE, '429 content type');
  checkProblemBody(res, 429, '429');
  assert.equal(res.headers['x-data-version'], s.dataset.version, '429 carries X-Data-Version');
});

test('X-Data-Version is on every response: successes, errors, /healthz and a preflight', async () => {
  const version = server.dataset.version;
  assert.ok(version.startsWith(MANIFEST_ID), `the version names the fixture's manifest id (${version})`);
  const requests: [string, Parameters<TestServer['get']>[1]][] = [
    ...SUCCESS_PATHS.map((p) => [p, {}] as [string, Parameters<TestServer['get']>[1]]),
    ...ERRORS.map(([p, o]) => [p, o] as [string, Parameters<TestServer['get']>[1]]),
    ['/healthz', { key: null }],
  ];
  for (const [path, options] of requests) {
    const res = await server.get(path, options);
    assert.equal(res.headers['x-data-version'], version, `${path} (${res.status}) carries X-Data-Version`);
  }
  const preflight = await server.get('/api/v1/markets', {
    method: 'OPTIONS',
    key: null,
    headers: { origin: 'https://desk.example', 'access-control-request-method': 'GET' },
  });
  assert.equal(preflight.status, 204, 'a CORS preflight');
  assert.equal(preflight.headers['x-data-version'], version, 'a preflight 204 carries X-Data-Version too');
});

test('no answer writes NaN or Infinity', async () => {
  for (const path of [
    ...SUCCESS_PATHS,
    '/api/v1/ashare/detail?symbols=sh600007,sh600008,sz000002,sz000004&fields=*',
    '/api/v1/ashare/screen?fields=*',
    '/api/v1/ashare/klines/sh600007?adj=qfq',
  ]) {
    const res = await server.get(path);
    assert.ok(!/NaN|Infinity/.test(res.text), `${path}: JSON has no NaN or Infinity`);
  }
});

test('empty K-line cells are JSON null, not 0 or ""', async () => {
  const body = ok(await server.get('/api/v1/ashare/klines/sh600007?start=2025-03-14'), 'sh600007');
  assert.deepEqual(
    body.data,
    [
      {
        symbol: 'sh600007',
        date: '2025-03-14',
        open: null,
        high: 4.49,
        low: 4.36,
        close: 4.46,
        volume: null,
        amount: null,
        adj_factor: 1,
      },
    ],
    'open, volume and amount are null',
  );
});

test('missing snapshot labels and values are JSON null, not 0 or ""', async () => {
  const body = ok(
    await server.get(
      '/api/v1/ashare/detail?symbols=sz000004,sh600007,sh600008&fields=name,market_type,close,pe_ratio,turnover_rate',
    ),
    'labels',
  );
  assert.equal(body.data.sz000004.name, null, 'sz000004 is not in symbols.csv: name null');
  assert.equal(body.data.sh600007.market_type, null, 'an empty market_type cell is null, not ""');
  assert.equal(body.data.sh600007.pe_ratio, null, 'an empty pe_ratio cell is null, not 0');
  assert.equal(body.data.sh600007.turnover_rate, null, 'an empty turnover_rate cell is null');
  assert.equal(body.data.sh600008.date, null, 'no K-lines: date null');
  assert.equal(body.data.sh600008.close, null, 'no K-lines: close null');
});

test('a market without data has null dates in /markets, not ""', async () => {
  const body = ok(await server.get('/api/v1/markets'), 'markets');
  const crypto = body.data.find((m: { market: string }) => m.market === 'crypto');
  assert.deepEqual(crypto, { market: 'crypto', symbols: 0, rows: 0, start_date: null, end_date: null }, 'empty market');
});

test('/healthz answers {status: ok, data_version} as JSON without a key', async () => {
  const res = await server.get('/healthz', { key: null });
  assert.equal(res.headers['content-type'], JSON_TYPE, 'JSON content type');
  assert.deepEqual(
    res.body,
    { status: 'ok', data_version: server.dataset.version, usage_durable: true },
    'ok with the version',
  );
});
