// List parameters sent repeated (OpenAPI's default form/explode style, what generated clients send)
// answer what the comma-separated list answers; any other parameter given twice stays a 400.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.js';
import { assertProblem, startAnswerServer } from '../../helpers/e2e.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

test('symbols and fields repeated answer what their comma lists answer, on every route that takes them', async () => {
  const pairs: [string, string][] = [
    [
      '/api/v1/ashare/klines?symbols=sh600001&symbols=000002.SZ&fields=o&fields=close,volume&limit=3',
      '/api/v1/ashare/klines?symbols=sh600001,000002.SZ&fields=o,close,volume&limit=3',
    ],
    [
      '/api/v1/ashare/detail?symbols=sh600001&symbols=sz000002,sz000003&fields=name&fields=pe_ratio',
      '/api/v1/ashare/detail?symbols=sh600001,sz000002,sz000003&fields=name,pe_ratio',
    ],
    ['/api/v1/ashare/screen?fields=pe_ratio&fields=ma5', '/api/v1/ashare/screen?fields=pe_ratio,ma5'],
    ['/api/v1/ashare/klines/sh600001?fields=c&fields=v', '/api/v1/ashare/klines/sh600001?fields=c,v'],
    [
      '/api/v1/ashare/export?symbols=sh600001&symbols=sz000002&format=ndjson',
      '/api/v1/ashare/export?symbols=sh600001,sz000002&format=ndjson',
    ],
  ];
  for (const [repeated, comma] of pairs) {
    const [a, b] = [await server.get(repeated), await server.get(comma)];
    assert.equal(a.status, 200, `${repeated}: ${a.text}`);
    assert.equal(a.text, b.text, repeated);
  }
});

test('a repeated list with an empty item is a 400 naming it; any other parameter twice stays a 400', async () => {
  assertProblem(
    await server.get('/api/v1/ashare/klines?symbols=sh600001&symbols='),
    400,
    'invalid_parameter',
    'symbols',
  );
  assertProblem(await server.get('/api/v1/ashare/klines/sh600001?limit=1&limit=2'), 400, 'invalid_parameter', 'limit');
  assertProblem(
    await server.get('/api/v1/ashare/klines?symbols=sh600001&date=2025-03-14&date=2025-03-13'),
    400,
    'invalid_parameter',
    'date',
  );
  assertProblem(
    await server.get('/api/v1/ashare/screen?min_pe_ratio=1&min_pe_ratio=2'),
    400,
    'invalid_parameter',
    'min_pe_ratio',
  );
});
