// The HTTP conventions (docs/api-notes.md): negotiation and 406, ETag and 304, CORS, Bearer keys,
// request ids, X-RateLimit-Reset, Link paging and the published flatbuffers schema.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { FLATBUFFERS_SCHEMA_PATH } from '../../../transport/answers/formats/flatbuffers.js';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { assertProblem, ManualClock, ok, startAnswerServer, startLimitServer } from '../../helpers/e2e.js';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const KLINES = '/api/v1/ashare/klines/sh600001?limit=3';

// ---- formats ----------------------------------------------------------------------------

test('Accept picks the format; no Accept, */* and application/* give JSON', async () => {
  const cases: [accept: string | null, type: string][] = [
    [null, 'application/json; charset=utf-8'],
    ['*/*', 'application/json; charset=utf-8'],
    ['application/*', 'application/json; charset=utf-8'],
    ['application/msgpack', 'application/msgpack'],
    ['application/x-msgpack', 'application/msgpack'],
    ['text/csv', 'text/csv; charset=utf-8'],
    ['text/*', 'text/csv; charset=utf-8'],
    ['application/x-flatbuffers', 'application/x-flatbuffers'],
    ['text/html, application/msgpack;q=0.5, */*;q=0.1', 'application/msgpack'],
    ['application/json;q=0.2, text/csv;q=0.9', 'text/csv; charset=utf-8'],
    ['application/msgpack, application/json', 'application/msgpack'],
    ['*/*;q=0.1, application/json;q=0', 'application/msgpack'],
  ];
  for (const [accept, type] of cases) {
    const res = await server.get(KLINES, { headers: accept === null ? {} : { accept } });
    assert.equal(res.status, 200, `Accept: ${accept}`);
    assert.equal(res.headers['content-type'], type, `Accept: ${accept}`);
    assert.equal(res.headers.vary, 'Accept, Accept-Encoding', `Accept: ${accept}: Vary`);
  }
});

test('format= wins over Accept', async () => {
  const res = await server.get(`${KLINES}&format=csv`, { headers: { accept: 'application/msgpack' } });
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  const json = await server.get(`${KLINES}&format=json`, { headers: { accept: 'text/html' } });
  assert.equal(json.status, 200, 'format=json is served though Accept asks only for HTML');
});

test('an Accept with nothing acceptable is 406 not_acceptable, as problem+json, with Vary: Accept (it depends on Accept)', async () => {
  for (const accept of ['text/html', 'image/png, text/plain', 'application/json;q=0, */*;q=0']) {
    const res = await server.get(KLINES, { headers: { accept } });
    assertProblem(res, 406, 'not_acceptable', undefined, `Accept: ${accept}`);
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.equal(res.headers.vary, 'Accept', `Accept: ${accept}`);
  }
  const quota = await server.get('/api/v1/quota', { headers: { accept: 'text/csv' } });
  assertProblem(quota, 406, 'not_acceptable');
  assert.equal(quota.headers.vary, 'Accept', 'a format the answer does not come in');
});

test('with a CORS_ORIGINS list a 406 carries one Vary naming Accept and Origin', async (t) => {
  const s = await startTestServer({ corsOrigins: 'https://a.example' });
  t.after(() => s.close());
  const res = await s.get(KLINES, { headers: { accept: 'text/html', origin: 'https://a.example' } });
  assertProblem(res, 406, 'not_acceptable');
  assert.equal(res.headers.vary, 'Accept, Origin');
});

test('a malformed Accept is read as no Accept (JSON); malformed ranges beside good ones are skipped', async () => {
  for (const accept of [
    'garbage',
    ';;;',
    'application/msgpack;q=2, application/json',
    'text/csv;q=abc, application/msgpack',
  ]) {
    const res = await server.get(KLINES, { headers: { accept } });
    assert.equal(res.status, 200, `Accept: ${accept}`);
  }
  assert.equal(
    (await server.get(KLINES, { headers: { accept: 'garbage' } })).headers['content-type'],
    'application/json; charset=utf-8',
  );
  assert.equal(
    (await server.get(KLINES, { headers: { accept: 'text/csv;q=abc, application/msgpack' } })).headers['content-type'],
    'application/msgpack',
  );
});

test('an unknown format= is 400 invalid_parameter naming format, never a body in another format', async () => {
  for (const format of ['xml', 'JSON', '', 'msgpack,csv']) {
    assertProblem(
      await server.get(`${KLINES}&format=${format}`),
      400,
      'invalid_parameter',
      'format',
      `format=${format}`,
    );
  }
});

test('errors stay problem+json whatever format is asked', async () => {
  const res = await server.get('/api/v1/ashare/klines/nope?format=msgpack', {
    headers: { accept: 'application/msgpack' },
  });
  assertProblem(res, 404, 'unknown_symbol');
  assert.equal(res.headers['content-type'], 'application/problem+json');
});

// ---- conditional requests -----------------------------------------------------------------

test('a matching If-None-Match is 304 with no body, the ETag, limits and data version; it takes a token and charges no rows', async (t) => {
  const { server: s } = await startLimitServer(t);
  const first = await s.get(KLINES);
  const etag = first.headers.etag as string;
  assert.match(etag, /^"[0-9a-z]+"$/, 'a strong ETag');
  assert.equal(first.headers['cache-control'], 'private, no-cache');
  const before = Number(first.headers['x-quota-remaining']);
  const res = await s.get(KLINES, { headers: { 'if-none-match': etag } });
  assert.equal(res.status, 304);
  assert.equal(res.text, '', 'no body');
  assert.equal(res.headers.etag, etag);
  assert.equal(res.headers['x-data-version'], s.dataset.version);
  assert.equal(res.headers['x-quota-remaining'], String(before), 'no rows charged');
  assert.equal(
    res.headers['x-ratelimit-remaining'],
    String(Number(first.headers['x-ratelimit-remaining']) - 1),
    'one token taken',
  );
  const quota = ok(await s.get('/api/v1/quota'), 'quota');
  assert.equal(quota.requests_today, 3, 'the 304 counts in requests_today');
  assert.equal(quota.used, 3, 'only the 200 charged its 3 rows');
});

test('If-None-Match: lists, weak tags and * match; other tags and malformed values answer 200', async () => {
  const etag = (await server.get(KLINES)).headers.etag as string;
  for (const header of [etag, `"nope", ${etag}`, `W/${etag}`, '*'])
    assert.equal((await server.get(KLINES, { headers: { 'if-none-match': header } })).status, 304, header);
  for (const header of ['"nope"', etag.slice(1, -1), 'W/', ',,,', `${etag}x`])
    assert.equal((await server.get(KLINES, { headers: { 'if-none-match': header } })).status, 200, header);
});

test('the ETag differs by format, encoding, request and plan, and is the same for the same request', async () => {
  const tag = async (path: string, headers: Record<string, string> = {}, key?: string) =>
    (await server.get(path, { headers, key })).headers.etag;
  const big = '/api/v1/ashare/klines/sh600001?limit=40'; // over 1 KiB: compressed when asked
  const base = await tag(big);
  assert.equal(await tag(big), base, 'same request, same tag');
  const others = [
    await tag(`${big}&format=msgpack`),
    await tag(big, { 'accept-encoding': 'gzip' }),
    await tag('/api/v1/ashare/klines/sh600001?limit=41'),
    await tag(big, {}, server.keys.free),
  ];
  assert.equal(new Set([base, ...others]).size, 5, `five different tags: ${[base, ...others].join(' ')}`);
});

test('after a reload changes the data version, the old ETag answers 200 with a new ETag', async (t) => {
  const s = await startTestServer();
  const dir = await tempDir();
  t.after(async () => (await s.close(), await dir.cleanup()));
  const old = await s.get('/api/v1/ashare/klines/sh600001?limit=1');
  // The state beside the snapshot folder, not in it (a folder there would be a stray, changing the folder while it is read).
  const folder = await fixtureCopy(join(dir.path, 'snapshot'), [
    { file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 },
  ]);
  await storeEdition(folder, join(dir.path, 'state'), { threads: 0 });
  s.state.dataset = (await openCurrentDataset(join(dir.path, 'state')))!;
  assert.notEqual(s.state.dataset.version, old.headers['x-data-version'], 'a new data version');
  const res = await s.get('/api/v1/ashare/klines/sh600001?limit=1', {
    headers: { 'if-none-match': old.headers.etag as string },
  });
  assert.equal(res.status, 200, 'the old tag no longer matches');
  assert.notEqual(res.headers.etag, old.headers.etag);
  assert.equal(res.body.data[0].close, 6.31, 'the new data');
});

// ---- encodings ------------------------------------------------------------------------------

test('Accept-Encoding: q-values are honoured, br wins a tie, q=0 refuses, identity when nothing fits', async () => {
  const big = '/api/v1/ashare/klines/sh600001?limit=40';
  const cases: [header: string, encoding: string | undefined][] = [
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0.5', 'gzip'],
    ['deflate, identity', undefined],
    ['x-gzip', 'gzip'],
    ['gzip;q=nonsense, br', 'br'],
    ['@@@', undefined],
  ];
  for (const [header, encoding] of cases) {
    const res = await server.get(big, { headers: { 'accept-encoding': header } });
    assert.equal(res.status, 200, header);
    assert.equal(res.headers['content-encoding'], encoding, `Accept-Encoding: ${header}`);
  }
});

test('a body under 1 KiB goes uncompressed whatever is accepted', async () => {
  const res = await server.get('/api/v1/ashare/klines/sh600001?limit=1', {
    headers: { 'accept-encoding': 'br, gzip' },
  });
  assert.ok(Buffer.byteLength(res.text) < 1024);
  assert.equal(res.headers['content-encoding'], undefined);
});

// ---- CORS -----------------------------------------------------------------------------------

const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Data-Version',
  'ETag',
  'Retry-After',
  'X-Request-Id',
];

test('a preflight is 204 allowing GET and the key, bearer and If-None-Match headers', async () => {
  for (const path of [KLINES, '/api/v1/markets', '/api/v1/openapi.json', '/healthz']) {
    const res = await server.get(path, {
      method: 'OPTIONS',
      key: null,
      headers: {
        origin: 'https://desk.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, if-none-match',
      },
    });
    assert.equal(res.status, 204, path);
    assert.equal(res.headers['access-control-allow-origin'], '*', path);
    assert.match(res.headers['access-control-allow-methods'] as string, /\bGET\b/);
    const allowed = (res.headers['access-control-allow-headers'] as string).toLowerCase();
    for (const h of ['x-api-key', 'authorization', 'if-none-match'])
      assert.ok(allowed.includes(h), `${path}: allows ${h}`);
  }
});

test('answers to a browser expose the limit, version, ETag, Retry-After and request id headers; errors too', async () => {
  for (const [path, key] of [
    [KLINES, undefined],
    ['/api/v1/ashare/klines/nope', undefined],
    ['/api/v1/markets', null],
  ] as const) {
    const res = await server.get(path, { key, headers: { origin: 'https://desk.example' } });
    assert.equal(res.headers['access-control-allow-origin'], '*', `${path} (${res.status})`);
    const exposed = (res.headers['access-control-expose-headers'] as string)
      .split(',')
      .map((h) => h.trim().toLowerCase());
    for (const h of EXPOSED) assert.ok(exposed.includes(h.toLowerCase()), `${path}: exposes ${h}`);
  }
  assert.equal(
    (await server.get(KLINES)).headers['access-control-allow-origin'],
    undefined,
    'no Origin, no CORS headers',
  );
});

test('CORS_ORIGINS as a list: listed origins are echoed (with Vary: Origin), others get no CORS headers', async (t) => {
  const s = await startTestServer({ corsOrigins: 'https://a.example, https://b.example' });
  t.after(() => s.close());
  const listed = await s.get(KLINES, { headers: { origin: 'https://b.example' } });
  assert.equal(listed.headers['access-control-allow-origin'], 'https://b.example');
  assert.equal(listed.headers.vary, 'Accept, Accept-Encoding, Origin');
  const other = await s.get(KLINES, { headers: { origin: 'https://evil.example' } });
  assert.equal(other.status, 200);
  assert.equal(other.headers['access-control-allow-origin'], undefined);
  const preflight = await s.get(KLINES, {
    method: 'OPTIONS',
    key: null,
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
  });
  assert.equal(preflight.headers['access-control-allow-origin'], undefined);
});

test("CORS_ORIGINS as a list: every answer kind carries Vary naming Origin, whatever the Origin (a cache must not serve one origin's answer to another)", async (t) => {
  const s = await startTestServer({ corsOrigins: 'https://a.example' });
  t.after(() => s.close());
  const kinds: [string, string, { key?: string | null; method?: string; headers?: Record<string, string> }][] = [
    ['a data answer', KLINES, {}],
    ['a problem (400)', `${KLINES}&limit=x`, {}],
    ['a problem (401)', KLINES, { key: null }],
    ['a 404', '/api/v1/nowhere', {}],
    ['a 405', KLINES, { method: 'DELETE' }],
    ['/quota', '/api/v1/quota', {}],
    ['an export', '/api/v1/ashare/export?symbols=sh600001', { key: s.keys.internal }],
    ['a service path', '/api/v1/openapi.json', { key: null }],
    ['a preflight', KLINES, { method: 'OPTIONS', key: null, headers: { 'access-control-request-method': 'GET' } }],
  ];
  for (const origin of ['https://a.example', 'https://evil.example', null])
    for (const [kind, path, options] of kinds) {
      const headers = { ...(options.headers ?? {}), ...(origin === null ? {} : { origin }) };
      const res = await s.get(path, { ...options, headers });
      const vary = String(res.headers.vary ?? '')
        .split(',')
        .map((v) => v.trim().toLowerCase());
      assert.ok(
        vary.includes('origin'),
        `${kind} (${res.status}) from ${origin ?? 'no origin'}: Vary is '${res.headers.vary}'`,
      );
    }
  const fetched = await s.get(KLINES);
  const tag = fetched.headers.etag as string;
  const notModified = await s.get(KLINES, { headers: { 'if-none-match': tag, origin: 'https://a.example' } });
  assert.equal(notModified.status, 304);
  assert.match(String(notModified.headers.vary), /Origin/, 'a 304 too');
});

test('the dashboard answers no CORS', async () => {
  const res = await server.get('/dashboard', { key: null, headers: { origin: 'https://desk.example' } });
  assert.equal(res.headers['access-control-allow-origin'], undefined);
});

// ---- keys, request ids, rate reset ------------------------------------------------------

test('Authorization: Bearer <key> authenticates; with a different X-API-Key it is 401; with the same, it is fine', async () => {
  ok(await server.get(KLINES, { key: null, headers: { authorization: `Bearer ${server.keys.pro}` } }), 'bearer alone');
  ok(
    await server.get(KLINES, { key: null, headers: { authorization: `bearer ${server.keys.pro}` } }),
    'the scheme is case-insensitive',
  );
  ok(await server.get(KLINES, { headers: { authorization: `Bearer ${server.keys.pro}` } }), 'the same key twice');
  assertProblem(
    await server.get(KLINES, { headers: { authorization: `Bearer ${server.keys.free}` } }),
    401,
    'unauthorized',
  );
  assertProblem(
    await server.get(KLINES, { key: null, headers: { authorization: `Basic ${server.keys.pro}` } }),
    401,
    'unauthorized',
  );
  assertProblem(
    await server.get(KLINES, { key: null, headers: { authorization: 'Bearer mdq_nope_nope' } }),
    401,
    'unauthorized',
  );
});

test('X-Request-Id is echoed when valid, generated otherwise, on successes, errors and 404s, and is the problem instance', async () => {
  const mine = await server.get(KLINES, { headers: { 'x-request-id': 'desk-42/abc' } });
  assert.equal(mine.headers['x-request-id'], 'desk-42/abc');
  const generated = [
    await server.get(KLINES),
    await server.get(KLINES, { headers: { 'x-request-id': 'has space' } }),
    await server.get(KLINES, { headers: { 'x-request-id': 'x'.repeat(129) } }),
  ];
  const ids = generated.map((r) => r.headers['x-request-id'] as string);
  for (const id of ids) assert.match(id, /^[0-9a-f]{12}-[0-9a-z]+$/, `generated: ${id}`);
  assert.equal(new Set(ids).size, 3, 'each request its own id');
  for (const [path, key, status] of [
    ['/api/v1/ashare/klines/nope', undefined, 404],
    ['/api/v1/nowhere', undefined, 404],
    [KLINES, null, 401],
  ] as const) {
    const res = await server.get(path, { key, headers: { 'x-request-id': 'trace-7' } });
    assert.equal(res.status, status);
    assert.equal(res.headers['x-request-id'], 'trace-7', path);
    assert.equal(res.body.instance, 'trace-7', `${path}: instance`);
  }
});

test('X-RateLimit-Reset counts the seconds until the bucket is full again', async (t) => {
  const clock = new ManualClock();
  const { server: s } = await startLimitServer(t, clock);
  const full = await s.get('/api/v1/quota', { key: s.keys.free }); // 30 a minute: one token per 2 s
  assert.equal(full.headers['x-ratelimit-reset'], '2', 'one token short: 2 s');
  await s.get('/api/v1/quota', { key: s.keys.free });
  await s.get('/api/v1/quota', { key: s.keys.free });
  assert.equal(
    (await s.get('/api/v1/quota', { key: s.keys.free })).headers['x-ratelimit-reset'],
    '8',
    'four short: 8 s',
  );
  clock.advance(7000); // 3.5 tokens back, one taken
  assert.equal(
    (await s.get('/api/v1/quota', { key: s.keys.free })).headers['x-ratelimit-reset'],
    '3',
    '1.5 short: 3 s',
  );
  assert.equal(
    (await s.get('/api/v1/quota', { key: s.keys.internal })).headers['x-ratelimit-reset'],
    undefined,
    'internal keys: none',
  );
});

// ---- paging ---------------------------------------------------------------------------------

/** Follows `Link: rel="next"` from `path`, returning every page's body. */
async function walk(path: string, s = server): Promise<any[]> {
  const pages: any[] = [];
  for (let next: string | null = path; next !== null; ) {
    const res = await s.get(next);
    pages.push(ok(res, next));
    const link = res.headers.link as string | undefined;
    next = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1];
    assert.ok(pages.length < 100, 'the walk ends');
  }
  return pages;
}

test('Link rel="next" walks a K-line history to its end, backwards from the latest day, no row missed or repeated', async () => {
  const all = ok(await server.get('/api/v1/ashare/klines/sh600001?limit=500'), 'all rows').data;
  const pages = await walk('/api/v1/ashare/klines/sh600001?limit=7&adj=qfq&fields=c');
  const rows = pages.reverse().flatMap((p) => p.data.map((r: any) => r.date));
  assert.deepEqual(
    rows,
    all.map((r: any) => r.date),
    'every day once, in order',
  );
  assert.equal(pages.length, Math.ceil(all.length / 7));
});

test('Link rel="next" walks forward from start, and pages symbols, screens and macro to their ends', async () => {
  const forward = await walk('/api/v1/ashare/klines/sh600001?start=2025-01-01&limit=6');
  const dates = forward.flatMap((p) => p.data.map((r: any) => r.date));
  assert.deepEqual(dates, [...dates].sort(), 'ascending across pages');
  assert.equal(dates.length, forward[0].total, 'all rows of the range');
  assert.equal(new Set(dates).size, dates.length, 'none repeated');
  for (const [path, key] of [
    ['/api/v1/ashare/symbols?limit=2', 'symbol'],
    ['/api/v1/ashare/screen?limit=2&sort=close&order=asc', 'symbol'],
    ['/api/v1/macro?limit=2', 'date'],
  ] as const) {
    const pages = await walk(path);
    const items = pages.flatMap((p) => p.data.map((r: any) => (key === 'date' ? `${r.indicator}/${r.date}` : r[key])));
    assert.equal(items.length, pages[0].total, `${path}: every item`);
    assert.equal(new Set(items).size, items.length, `${path}: none repeated`);
  }
});

test('no Link on the last page, on unpaged answers, or past the end', async () => {
  assert.equal(
    (await server.get('/api/v1/ashare/klines/sh600001?limit=500')).headers.link,
    undefined,
    'the whole history in one page',
  );
  assert.equal((await server.get('/api/v1/ashare/detail/sh600001')).headers.link, undefined);
  assert.equal((await server.get('/api/v1/ashare/klines/sh600001?offset=9999')).headers.link, undefined);
});

// ---- documents --------------------------------------------------------------------------------

test("GET /api/v1/schema.fbs serves the repository's schema file without a key", async () => {
  const res = await server.get('/api/v1/schema.fbs', { key: null });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(res.text, await readFile(FLATBUFFERS_SCHEMA_PATH, 'utf8'));
  assert.match(res.text, /table Klines\b/);
});
