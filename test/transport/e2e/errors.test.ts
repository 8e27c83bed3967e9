// Every error each endpoint can produce (status, code, param), and the order in which the checks run (route, method, key, rate, quota, parameters, existence).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.js';
import { Guard } from '../../../transport/guard/guard.js';
import { routesFor } from '../../../transport/routes/index.js';
import {
  assertProblem,
  drainBucket,
  exhaustFreeQuota,
  keyRecordOf,
  rawRequest,
  startAnswerServer,
  startLimitServer,
} from '../../helpers/e2e.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const api = (path: string, options: Parameters<TestServer['get']>[1] = {}) => server.get(`/api/v1${path}`, options);

// ---- 400 invalid_parameter, naming the parameter ----

const INVALID: [path: string, param: string, why: string][] = [
  ['/ashare/klines/sh600001?start=2024-02-30', 'start', 'a date that does not exist'],
  ['/ashare/klines/sh600001?end=2025-13-01', 'end', 'month 13'],
  ['/ashare/klines/sh600001?start=2024-2-3', 'start', 'a date without zero padding'],
  ['/ashare/klines/sh600001?start=2024020', 'start', 'a date of seven digits'],
  ['/ashare/klines/sh600001?start=20240230', 'start', 'YYYYMMDD of a day that does not exist'],
  ['/ashare/klines/sh600001?start=2024-0203', 'start', 'one dash of two'],
  ['/ashare/klines/sh600001?limit=0', 'limit', 'limit below 1'],
  ['/ashare/klines/sh600001?limit=-1', 'limit', 'a negative limit'],
  ['/ashare/klines/sh600001?limit=1.5', 'limit', 'a fractional limit'],
  ['/ashare/klines/sh600001?limit=%2B5', 'limit', 'a signed limit'],
  ['/ashare/klines/sh600001?limit=', 'limit', 'an empty limit'],
  ['/ashare/klines/sh600001?offset=abc', 'offset', 'offset not a number'],
  ['/ashare/klines/sh600001?offset=-1', 'offset', 'offset below 0'],
  ['/ashare/klines/sh600001?limit=5&limit=5', 'limit', 'a parameter given twice'],
  ['/ashare/klines/sh600001?fields=o,,c', 'fields', 'an empty list item'],
  ['/ashare/klines/sh600001?fields=', 'fields', 'an empty list'],
  ['/ashare/klines/sh600001?fields=foo', 'fields', 'an unknown field'],
  ['/ashare/klines/sh600001?fields=o,pe_ratio', 'fields', 'a snapshot column is not a K-line field'],
  ['/ashare/klines/sh600001?fields=%zz', 'fields', 'malformed percent-encoding'],
  ['/ashare/klines/sh600001?start=2025-03-01&end=2025-02-01', 'start', 'start after end'],
  ['/ashare/klines/sh600001?adj=xfq', 'adj', 'an unknown adjustment'],
  ['/ashare/klines/%zz', 'symbol', 'malformed percent-encoding in the path'],
  ['/ashare/klines', 'symbols', 'batch without symbols'],
  ['/ashare/klines?symbols=', 'symbols', 'batch with an empty symbols list'],
  ['/ashare/klines?symbols=sh600001,,sz000002', 'symbols', 'batch with an empty item'],
  ['/ashare/klines?symbols=sh600001&date=2025-03-14&start=2025-03-01', 'date', 'date with start'],
  ['/ashare/klines?symbols=sh600001&date=2025-03-14&end=2025-03-20', 'date', 'date with end'],
  ['/ashare/klines?symbols=sh600001&date=2024-02-30', 'date', 'batch date that does not exist'],
  ['/ashare/klines?symbols=sh600001&start=2025-03-02&end=2025-03-01', 'start', 'batch start after end'],
  ['/ashare/klines?symbols=sh600001&fields=c,foo', 'fields', 'batch unknown field'],
  ['/ashare/klines?symbols=sh600001&adj=none', 'adj', 'batch unknown adjustment'],
  ['/ashare/klines?symbols=sh600001&limit=0', 'limit', 'batch limit 0'],
  ['/ashare/klines?symbols=sh600001&offset=1.0', 'offset', 'batch fractional offset'],
  ['/ashare/detail/sh600001?fields=foo', 'fields', 'detail unknown column'],
  ['/ashare/detail/sh600001?fields=close,,open', 'fields', 'detail empty item'],
  ['/ashare/detail', 'symbols', 'batch detail without symbols'],
  ['/ashare/detail?symbols=sh600001,,sh600006', 'symbols', 'batch detail empty item'],
  ['/ashare/detail?symbols=sh600001&fields=nope', 'fields', 'batch detail unknown column'],
  ['/ashare/screen?sort=foo', 'sort', 'sort by an unknown column'],
  ['/ashare/screen?sort=name', 'sort', 'sort by a text column'],
  ['/ashare/screen?order=up', 'order', 'an unknown order'],
  ['/ashare/screen?min_foo=1', 'min_foo', 'a bound on an unknown column'],
  ['/ashare/screen?max_name=1', 'max_name', 'a bound on a text column'],
  ['/ashare/screen?min_pe_ratio=NaN', 'min_pe_ratio', 'NaN bound'],
  ['/ashare/screen?max_pe_ratio=Infinity', 'max_pe_ratio', 'Infinity bound'],
  ['/ashare/screen?min_pe_ratio=-Infinity', 'min_pe_ratio', '-Infinity bound'],
  ['/ashare/screen?min_pe_ratio=', 'min_pe_ratio', 'an empty bound'],
  ['/ashare/screen?min_pe_ratio=0x10', 'min_pe_ratio', 'a hexadecimal bound'],
  ['/ashare/screen?min_pe_ratio=1&min_pe_ratio=2', 'min_pe_ratio', 'a bound given twice'],
  ['/ashare/screen?limit=0', 'limit', 'screen limit 0'],
  ['/ashare/screen?offset=x', 'offset', 'screen offset not a number'],
  ['/ashare/screen?fields=foo', 'fields', 'screen unknown column'],
  ['/ashare/symbols?limit=0', 'limit', 'symbols limit 0'],
  ['/ashare/symbols?limit=2.5', 'limit', 'symbols fractional limit'],
  ['/ashare/symbols?offset=abc', 'offset', 'symbols offset not a number'],
  ['/ashare/symbols?search=a&search=b', 'search', 'search given twice'],
  ['/macro?indicator=gdpx', 'indicator', 'an unknown indicator'],
  ['/macro?start=25', 'start', 'a two-digit year'],
  ['/macro?start=2025-01', 'start', 'a month is not a year'],
  ['/macro?end=abcd', 'end', 'a year of letters'],
  ['/macro?start=2025&end=2024', 'start', 'start year after end year'],
  ['/macro?limit=0', 'limit', 'macro limit 0'],
  ['/macro?offset=-3', 'offset', 'macro negative offset'],
  ['/markets?x=1&x=2', 'x', 'any parameter given twice, even an unknown one'],
  ['/quota?x=1&x=1', 'x', 'a repeated parameter on /quota'],
];

for (const [path, param, why] of INVALID) {
  test(`400 invalid_parameter (${param}): ${why} — ${path}`, async () => {
    assertProblem(await api(path), 400, 'invalid_parameter', param, why);
  });
}

test('a screen field holding separators (close|volume) stays unknown after a screen of that shape was served', async () => {
  assert.equal((await api('/ashare/screen?fields=close&min_volume=0')).status, 200);
  assertProblem(
    await api('/ashare/screen?fields=close%7Cvolume'),
    400,
    'invalid_parameter',
    'fields',
    'not the memo of close + volume',
  );
  assertProblem(
    await api('/ashare/screen?fields=close%3Evolume&sort=volume'),
    400,
    'invalid_parameter',
    'fields',
    'not the memo of close sorted by volume',
  );
});

// An unknown parameter is a 400 naming it, on every route (since 2026-11-23; it used to be ignored).
// Each route is asked a valid question first, so the 400 comes from the one added name alone.
const PATH_VALUES: Record<string, string> = { market: 'ashare', symbol: 'sh600001' };
/** Values of the parameters a valid question needs: the required ones, and `symbols` (batch K-lines need it or `date`). */
const REQUIRED_VALUES: Record<string, string> = { symbols: 'sh600001' };

for (const route of routesFor(new Guard())) {
  const path = route.pattern.replace(/:([a-z_]+)/g, (_, name: string) => PATH_VALUES[name]);
  const required = Object.entries(route.query)
    .filter(([name, p]) => p.required || name === 'symbols')
    .map(([name]) => `${name}=${REQUIRED_VALUES[name]}`);
  const valid = required.length === 0 ? path : `${path}?${required.join('&')}`;

  test(`400 invalid_parameter naming an unknown query parameter: ${route.pattern}`, async () => {
    assert.equal((await server.get(valid)).status, 200, `${valid} is a valid request`);
    const res = await server.get(`${valid}${required.length === 0 ? '?' : '&'}colour=blue`);
    assertProblem(res, 400, 'invalid_parameter', 'colour', 'a parameter the route does not declare');
    assert.equal(res.body.detail, 'colour: unknown parameter', 'the detail names it as unknown');
  });
}

test('an unknown query parameter is a 400 even alone, and the first unknown one is named', async () => {
  assertProblem(await api('/markets?colour=blue'), 400, 'invalid_parameter', 'colour', 'the only parameter');
  assertProblem(
    await api('/ashare/klines/sh600001?limit=1&colour=blue&size=3'),
    400,
    'invalid_parameter',
    'colour',
    'the first of two unknown names',
  );
});

// ---- 400 unknown_market ----

for (const path of [
  '/nasdaq/klines/sh600001',
  '/nasdaq/klines?symbols=sh600001',
  '/nasdaq/detail/sh600001',
  '/nasdaq/detail?symbols=sh600001',
  '/nasdaq/screen',
  '/nasdaq/symbols',
]) {
  test(`400 unknown_market: ${path}`, async () => {
    assertProblem(await api(path), 400, 'unknown_market', 'market', 'nasdaq is not one of the six markets');
  });
}

// ---- 400 batch_too_large ----

const SIX = 'sh600001,sh600006,sh600007,sh600008,sh600009,sz000002';
const FIFTY_ONE = Array.from({ length: 51 }, (_, i) => `sh6${String(i).padStart(5, '0')}`).join(',');

test('400 batch_too_large: six symbols in a free key’s K-line batch', async () => {
  assertProblem(
    await api(`/ashare/klines?symbols=${SIX}`, { key: server.keys.free }),
    400,
    'batch_too_large',
    'symbols',
    'free batch is 5',
  );
});

test('400 batch_too_large: six symbols in a free key’s detail batch', async () => {
  assertProblem(
    await api(`/ashare/detail?symbols=${SIX}`, { key: server.keys.free }),
    400,
    'batch_too_large',
    'symbols',
    'free batch is 5',
  );
});

test('400 batch_too_large: 51 symbols in a pro key’s batch', async () => {
  assertProblem(await api(`/ashare/detail?symbols=${FIFTY_ONE}`), 400, 'batch_too_large', 'symbols', 'pro batch is 50');
});

test('a free batch of six items of which two are the same text is five symbols, not too large', async () => {
  const res = await api('/ashare/detail?symbols=sh600001,sh600006,sh600007,sh600008,sh600009,sh600001&fields=close', {
    key: server.keys.free,
  });
  assert.equal(res.status, 200, 'duplicates are dropped before the batch size is checked');
});

// ---- 401 unauthorized ----

test('401 unauthorized: no X-API-Key', async () => {
  assertProblem(await api('/markets', { key: null }), 401, 'unauthorized');
});

test('401 unauthorized: an empty X-API-Key', async () => {
  assertProblem(await api('/markets', { key: '' }), 401, 'unauthorized');
});

test('401 unauthorized: a malformed key', async () => {
  assertProblem(await api('/markets', { key: 'not-a-key' }), 401, 'unauthorized');
});

test('401 unauthorized: a well-formed key nobody issued', async () => {
  assertProblem(
    await api('/markets', { key: 'mdq_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' }),
    401,
    'unauthorized',
  );
});

test('401 unauthorized: a known key id with a wrong secret', async () => {
  const pro = server.keys.pro;
  const last = pro.at(-1) === 'A' ? 'B' : 'A';
  assertProblem(await api('/markets', { key: pro.slice(0, -1) + last }), 401, 'unauthorized');
});

test('401 unauthorized: two different X-API-Key headers', async () => {
  const headers = { 'x-api-key': [server.keys.pro, server.keys.enterprise] } as unknown as Record<string, string>;
  assertProblem(
    await api('/markets', { key: null, headers }),
    401,
    'unauthorized',
    undefined,
    'two different keys name no one key',
  );
});

test('401 unauthorized: a disabled key, while the other keys still pass', async (t) => {
  const { server: s } = await startLimitServer(t);
  s.guard.setKeys([
    keyRecordOf(s.keys.free, 'free', false),
    keyRecordOf(s.keys.pro, 'pro', true),
    keyRecordOf(s.keys.enterprise, 'enterprise', false),
    keyRecordOf(s.keys.internal, 'internal', false),
  ]);
  assertProblem(
    await s.get('/api/v1/markets', { key: s.keys.pro }),
    401,
    'unauthorized',
    undefined,
    'the disabled pro key',
  );
  assert.equal((await s.get('/api/v1/markets', { key: s.keys.free })).status, 200, 'an enabled key is still served');
});

test('401 unauthorized on every endpoint', async () => {
  for (const path of [
    '/markets',
    '/macro',
    '/quota',
    '/ashare/symbols',
    '/ashare/klines/sh600001',
    '/ashare/klines?symbols=sh600001',
    '/ashare/detail/sh600001',
    '/ashare/detail?symbols=sh600001',
    '/ashare/screen',
  ]) {
    assertProblem(await api(path, { key: null }), 401, 'unauthorized', undefined, path);
  }
});

// ---- 404 ----

for (const path of [
  '/api/v1/nothing',
  '/api/v1',
  '/api/v1/ashare',
  '/api/v1/ashare/klines/sh600001/extra',
  '/api/v2/markets',
  '/nothing',
  '/',
]) {
  test(`404 not_found: ${path}`, async () => {
    assertProblem(await server.get(path), 404, 'not_found');
  });
}

test('404 unknown_symbol: single K-lines of a symbol that does not exist', async () => {
  assertProblem(await api('/ashare/klines/sh999999'), 404, 'unknown_symbol');
});

test('404 unknown_symbol: a symbol of another market', async () => {
  assertProblem(await api('/ashare/klines/usAAPL'), 404, 'unknown_symbol', undefined, 'usAAPL is usstock');
});

test('404 unknown_symbol: single detail', async () => {
  assertProblem(await api('/hkstock/detail/hk99999'), 404, 'unknown_symbol');
});

test('404 unknown_symbol: a K-line batch where no symbol exists', async () => {
  assertProblem(await api('/ashare/klines?symbols=nope,sh999999'), 404, 'unknown_symbol');
});

test('404 unknown_symbol: a detail batch where no symbol exists', async () => {
  assertProblem(await api('/usstock/detail?symbols=usNOPE'), 404, 'unknown_symbol');
});

// ---- 405 ----

for (const [method, path] of [
  ['POST', '/api/v1/markets'],
  ['DELETE', '/api/v1/ashare/klines/sh600001'],
  ['PUT', '/api/v1/quota'],
  ['PATCH', '/api/v1/ashare/screen'],
]) {
  test(`405 method_not_allowed with Allow: GET, OPTIONS: ${method} ${path}`, async () => {
    const res = await server.get(path, { method });
    assertProblem(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET, OPTIONS', 'Allow names GET and OPTIONS (the CORS preflight)');
  });
}

test('405 with Allow: GET, OPTIONS and no body: HEAD on an API path', async () => {
  const res = await rawRequest(server.port, ['HEAD /api/v1/markets HTTP/1.1', `X-API-Key: ${server.keys.pro}`]);
  assert.equal(res.status, 405, 'HEAD is not GET');
  assert.equal(res.headers.allow, 'GET, OPTIONS', 'Allow names GET and OPTIONS');
  assert.equal(res.rest, '', 'a response to HEAD carries no body (RFC 9110 §9.3.2)');
});

// ---- 429 (a fresh server on a hand-moved clock each) ----

test('429 rate_limited with Retry-After once a free key’s 30 tokens are spent', async (t) => {
  const { server: s } = await startLimitServer(t);
  await drainBucket(s, s.keys.free);
  const res = await s.get('/api/v1/ashare/klines/sh600001?limit=1', { key: s.keys.free });
  assertProblem(res, 429, 'rate_limited');
  assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After is at least 1 second');
});

test('429 quota_exhausted with Retry-After once a free key’s rows are spent', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  await exhaustFreeQuota(s, clock);
  clock.advance(2000);
  const res = await s.get('/api/v1/markets', { key: s.keys.free });
  assertProblem(res, 429, 'quota_exhausted');
  assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After is at least 1 second');
});

// ---- Order of checks: route → method → key → rate → quota → parameters → existence ----

describe('order of checks', () => {
  test('an unknown path without a key is 404, not 401', async () => {
    assertProblem(await server.get('/api/v1/nothing', { key: null }), 404, 'not_found');
  });

  test('a POST to an unknown path without a key is 404, not 405', async () => {
    assertProblem(await server.get('/api/v1/nothing', { key: null, method: 'POST' }), 404, 'not_found');
  });

  test('a POST to an API path without a key is 405, not 401', async () => {
    assertProblem(await server.get('/api/v1/markets', { key: null, method: 'POST' }), 405, 'method_not_allowed');
  });

  test('a bad key with a bad parameter is 401', async () => {
    assertProblem(await api('/ashare/klines/sh600001?limit=0', { key: 'mdq_bad' }), 401, 'unauthorized');
  });

  test('no key with an unknown market is 401', async () => {
    assertProblem(await api('/nasdaq/screen', { key: null }), 401, 'unauthorized');
  });

  test('no key with an unknown symbol is 401', async () => {
    assertProblem(await api('/ashare/detail/nope', { key: null }), 401, 'unauthorized');
  });

  test('a key with no tokens left and a bad parameter is 429 rate_limited', async (t) => {
    const { server: s } = await startLimitServer(t);
    await drainBucket(s, s.keys.free);
    assertProblem(await s.get('/api/v1/ashare/klines/sh600001?limit=0', { key: s.keys.free }), 429, 'rate_limited');
  });

  test('a key with no tokens left and an unknown symbol is 429 rate_limited', async (t) => {
    const { server: s } = await startLimitServer(t);
    await drainBucket(s, s.keys.free);
    assertProblem(await s.get('/api/v1/ashare/detail/nope', { key: s.keys.free }), 429, 'rate_limited');
  });

  test('a key with no rows left and a bad parameter is 429 quota_exhausted', async (t) => {
    const { server: s, clock } = await startLimitServer(t);
    await exhaustFreeQuota(s, clock);
    clock.advance(2000);
    assertProblem(await s.get('/api/v1/ashare/klines/sh600001?limit=0', { key: s.keys.free }), 429, 'quota_exhausted');
  });

  test('a key with neither tokens nor rows left is 429 rate_limited (rate before quota)', async (t) => {
    const { server: s, clock } = await startLimitServer(t);
    await exhaustFreeQuota(s, clock);
    await drainBucket(s, s.keys.free);
    assertProblem(await s.get('/api/v1/markets', { key: s.keys.free }), 429, 'rate_limited');
  });

  test('a bad parameter on an unknown symbol is 400 (parameters before existence)', async () => {
    assertProblem(await api('/ashare/klines/nope?limit=0'), 400, 'invalid_parameter', 'limit');
  });

  test('a bad fields on an unknown detail symbol is 400', async () => {
    assertProblem(await api('/ashare/detail/nope?fields=foo'), 400, 'invalid_parameter', 'fields');
  });

  test('a too-large batch of unknown symbols is 400 batch_too_large, not 404', async () => {
    assertProblem(
      await api('/ashare/klines?symbols=n1,n2,n3,n4,n5,n6', { key: server.keys.free }),
      400,
      'batch_too_large',
      'symbols',
    );
  });

  test('a bad parameter in a batch of unknown symbols is 400, not 404', async () => {
    assertProblem(
      await api('/ashare/klines?symbols=n1,n2&date=2025-03-14&start=2025-03-01'),
      400,
      'invalid_parameter',
      'date',
    );
  });

  test('a malformed symbol in the path with a bad parameter is 400', async () => {
    assertProblem(await api('/ashare/detail/nope?fields=a,,b'), 400, 'invalid_parameter', 'fields');
  });
});
