// Every live response, success or problem, validates against what the served OpenAPI document declares for it.

import assert from 'node:assert/strict';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { buildOpenApi } from '../../../transport/openapi.js';
import { type ApiResponse, FIXTURE, startTestServer, type TestServer } from '../../helpers/api-server.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

type Plan = 'free' | 'pro' | 'enterprise' | 'internal';

let server: TestServer;
let doc: any;
before(async () => {
  server = await startTestServer();
  doc = (await server.get('/api/v1/openapi.json', { key: null })).body;
});
after(() => server.close());

const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats.default(ajv);

const pointer = (ref: string): unknown =>
  ref
    .slice(2)
    .split('/')
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
/** `node` with every `$ref` replaced by its target in the served document. */
const deref = (node: unknown): any =>
  Array.isArray(node)
    ? node.map(deref)
    : node !== null && typeof node === 'object'
      ? '$ref' in node
        ? deref(pointer((node as { $ref: string }).$ref))
        : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)]))
      : node;

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorFor(key: string, schema: unknown): ReturnType<typeof ajv.compile> {
  let validate = validators.get(key);
  if (validate === undefined) validators.set(key, (validate = ajv.compile(deref(schema))));
  return validate;
}

/** The document path whose template matches a request path (`/api/v1/ashare/klines/x` → `/{market}/klines/{symbol}`). */
function templateOf(url: string): string | undefined {
  const path = url.split('?')[0];
  const relative = path.startsWith('/api/v1/') ? path.slice('/api/v1'.length) : path;
  return Object.keys(doc.paths).find((t) =>
    new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(relative),
  );
}

/** The limit headers: documented as optional only because internal keys get none; every other key gets them all. */
const LIMIT_HEADER = /^X-(RateLimit|Quota)-/;

/**
 * Asserts the response is one the document declares for GET `url`: status listed, content
 * type, body valid against the schema, every required header present, the limit headers
 * present for every key but an internal one, and any other optional header (Content-Encoding,
 * Link) fitting its schema when it is there; Link exactly while rows remain after the page.
 */
function assertDocumented(res: ApiResponse, url: string, plan: Plan | null): void {
  const template = templateOf(url);
  assert.ok(template, `${url} is a documented path`);
  const response = doc.paths[template].get.responses[String(res.status)];
  assert.ok(response, `GET ${template} documents status ${res.status} (body ${res.text})`);
  const [mediaType, media] = Object.entries<any>(response.content)[0];
  assert.equal(
    res.headers['content-type'],
    mediaType === 'application/json' ? 'application/json; charset=utf-8' : mediaType,
    'content type',
  );
  const validate = validatorFor(`${template} ${res.status}`, media.schema);
  assert.ok(validate(res.body), `${url} ${res.status}: ${ajv.errorsText(validate.errors)}\n${res.text}`);
  for (const [name, ref] of Object.entries<any>(response.headers ?? {})) {
    const header = deref(ref);
    const value = res.headers[name.toLowerCase()];
    const expected = header.required || (LIMIT_HEADER.test(name) && plan !== 'internal' && plan !== null);
    if (!expected && value === undefined) continue;
    assert.ok(value !== undefined, `${url} ${res.status}: header ${name} present`);
    const typed = header.schema.type === 'integer' ? Number(value) : value;
    assert.ok(validatorFor(`header ${name}`, header.schema)(typed), `${url}: header ${name}=${value} fits its schema`);
  }
  const { headers: h, body } = res;
  assert.equal(
    h['content-encoding'],
    undefined,
    `${url} ${res.status}: no Content-Encoding when the request sent no Accept-Encoding`,
  );
  if (
    res.status === 200 &&
    typeof body?.total === 'number' &&
    typeof body.offset === 'number' &&
    typeof body.count === 'number'
  ) {
    const remain = body.count > 0 && body.offset + body.count < body.total;
    assert.equal(
      h.link !== undefined,
      remain,
      `${url}: Link: rel="next" exactly while rows remain (offset ${body.offset} + count ${body.count} of ${body.total})`,
    );
  }
}

/** A response to a path or method the document does not list: still a Problem. */
function assertProblem(res: ApiResponse, status: number, code: string): void {
  assert.equal(res.status, status);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  const validate = validatorFor('Problem', { $ref: '#/components/schemas/Problem' });
  assert.ok(validate(res.body), ajv.errorsText(validate.errors));
  assert.equal(res.body.code, code);
}

async function call(
  url: string,
  plan: Plan | null = 'pro',
  options: { key?: string; method?: string } = {},
): Promise<ApiResponse> {
  return server.get(url, { key: options.key ?? (plan === null ? null : server.keys[plan]), method: options.method });
}

// ---- the document itself ---------------------------------------------------------------

test('GET /api/v1/openapi.json answers the document as JSON without a key', async () => {
  const res = await call('/api/v1/openapi.json', null);
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(buildOpenApi())));
  assertDocumented(res, '/openapi.json', null);
});

test("every operation's JSON examples (one per shape it answers) validate against its 200 schema", () => {
  let checked = 0;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const media = item.get?.responses?.['200']?.content?.['application/json'];
    if (media === undefined) continue;
    const values = media.examples ? Object.values<any>(media.examples).map((e) => e.value) : [media.example];
    const validate = validatorFor(`example ${path}`, media.schema);
    for (const value of values) {
      assert.ok(value !== undefined, `${path}: an example`);
      assert.ok(validate(value), `${path}: ${ajv.errorsText(validate.errors)}`);
      checked++;
    }
  }
  assert.ok(checked >= 10, `${checked} examples checked`);
});

// ---- successes -------------------------------------------------------------------------

const SUCCESSES: [url: string, plan: Plan | null][] = [
  ['/healthz', null],
  ['/api/v1/markets', 'pro'],
  ['/api/v1/ashare/symbols', 'pro'],
  ['/api/v1/ashare/symbols?search=sh6&limit=2&offset=1', 'pro'],
  ['/api/v1/hkstock/symbols?limit=500', 'pro'],
  ['/api/v1/crypto/symbols', 'pro'],
  ['/api/v1/ashare/klines/sh600001', 'pro'],
  ['/api/v1/ashare/klines/SH600001?fields=o,c,volume&adj=qfq&limit=3&offset=1', 'pro'],
  ['/api/v1/ashare/klines/sh600001?start=2025-03-01&end=2025-03-14&fields=*&adj=hfq', 'enterprise'],
  ['/api/v1/usstock/klines/usaapl?fields=amount&limit=9999', 'free'],
  ['/api/v1/ashare/klines/sh600001', 'internal'],
  ['/api/v1/ashare/klines?symbols=sh600001,sz000002', 'pro'],
  ['/api/v1/ashare/klines?symbols=sh600001,sh999999&date=2025-03-14&fields=*', 'pro'],
  ['/api/v1/ashare/klines?symbols=sh600001&start=2025-03-10&limit=2&adj=qfq', 'pro'],
  ['/api/v1/ashare/klines?date=20250314&limit=3&offset=1&adj=qfq', 'pro'],
  ['/api/v1/hkstock/klines?date=2025-03-15', 'pro'],
  ['/api/v1/ashare/klines/600001.SH?period=month&adj=qfq', 'pro'],
  ['/api/v1/ashare/klines?symbols=sh600001,000002.sz&period=week&limit=2', 'pro'],
  ['/api/v1/hkstock/detail/0700.HK', 'pro'],
  ['/api/v1/ashare/detail/sh600001', 'pro'],
  ['/api/v1/ashare/detail/sh600007?fields=name,pe_ratio,wb_ratio', 'pro'],
  ['/api/v1/ashare/detail/sh600008', 'pro'],
  ['/api/v1/hkstock/detail?symbols=hk00700,hk09988,hk00001&fields=*', 'pro'],
  ['/api/v1/ashare/detail?symbols=sh600001', 'internal'],
  ['/api/v1/ashare/screen', 'pro'],
  ['/api/v1/ashare/screen?min_pe_ratio=0&max_pe_ratio=100&sort=pe_ratio&order=asc&limit=2', 'pro'],
  ['/api/v1/ashare/screen?fields=*&offset=1', 'pro'],
  ['/api/v1/usstock/screen?max_close_vs_52w_high=0&fields=eps_ttm', 'pro'],
  ['/api/v1/crypto/screen', 'pro'],
  ['/api/v1/macro', 'pro'],
  ['/api/v1/macro?indicator=cpi_ppi&start=2024&end=2025&limit=1', 'pro'],
  ['/api/v1/quota', 'pro'],
  ['/api/v1/quota', 'internal'],
  ['/api/v1/ashare/calendar', 'pro'],
  ['/api/v1/ashare/calendar?start=2025-01-01&end=2025-03-14&limit=5&offset=2', 'free'],
  ['/api/v1/crypto/calendar', 'pro'],
  ['/api/v1/ashare/actions/sh600001', 'pro'],
  ['/api/v1/usstock/actions/usmsft?start=2025-03-01', 'pro'],
  ['/api/v1/macro/indicators', 'pro'],
  ['/api/v1/macro/indicators', 'internal'],
];

for (const [url, plan] of SUCCESSES) {
  test(`GET ${url} (${plan ?? 'no key'}) is a documented 200`, async () => {
    const res = await call(url, plan);
    assert.equal(res.status, 200, res.text);
    assertDocumented(res, url, plan);
  });
}

// ---- parameter, key and existence errors -----------------------------------------------

const ERRORS: [url: string, status: number, code: string, plan?: Plan | null][] = [
  ['/api/v1/ashare/klines/sh600001?limit=0', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?limit=1e3', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?fields=foo', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?adj=none', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?start=2024-02-30', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?start=2025-03-14&end=2025-03-01', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?limit=1&limit=2', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/%E0%A4%A', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines?symbols=sh600001&date=2025-03-14&start=2025-03-01', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines?symbols=sh600001,,sz000002', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?period=fortnight', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines/sh600001?period=week&adj=qfq&qfq_base=2025-01-31', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines?symbols=sh600001&period=month&date=2025-03-14', 400, 'invalid_parameter'],
  ['/api/v1/ashare/klines?date=2025-02-30', 400, 'invalid_parameter'],
  ['/api/v1/ashare/detail/sh600001?fields=bogus', 400, 'invalid_parameter'],
  ['/api/v1/ashare/detail?symbols=', 400, 'invalid_parameter'],
  ['/api/v1/ashare/screen?min_name=1', 400, 'invalid_parameter'],
  ['/api/v1/ashare/screen?min_pe_ratio=NaN', 400, 'invalid_parameter'],
  ['/api/v1/ashare/screen?sort=name', 400, 'invalid_parameter'],
  ['/api/v1/ashare/screen?order=up', 400, 'invalid_parameter'],
  ['/api/v1/ashare/symbols?offset=-1', 400, 'invalid_parameter'],
  ['/api/v1/macro?indicator=gold', 400, 'invalid_parameter'],
  ['/api/v1/macro?start=24', 400, 'invalid_parameter'],
  ['/api/v1/markets?x=%ZZ', 400, 'invalid_parameter'],
  ['/api/v1/quota?a=1&a=2', 400, 'invalid_parameter'],
  ['/api/v1/nasdaq/symbols', 400, 'unknown_market'],
  ['/api/v1/nasdaq/klines/sh600001', 400, 'unknown_market'],
  ['/api/v1/nasdaq/klines?symbols=sh600001', 400, 'unknown_market'],
  ['/api/v1/nasdaq/detail/sh600001', 400, 'unknown_market'],
  ['/api/v1/nasdaq/detail?symbols=sh600001', 400, 'unknown_market'],
  ['/api/v1/nasdaq/screen', 400, 'unknown_market'],
  ['/api/v1/ashare/klines?symbols=a1,a2,a3,a4,a5,a6', 400, 'batch_too_large', 'free'],
  ['/api/v1/ashare/detail?symbols=a1,a2,a3,a4,a5,a6', 400, 'batch_too_large', 'free'],
  ['/api/v1/markets', 401, 'unauthorized', null],
  ['/api/v1/quota', 401, 'unauthorized', null],
  ['/api/v1/ashare/screen', 401, 'unauthorized', null],
  ['/api/v1/ashare/klines/sh999999', 404, 'unknown_symbol'],
  ['/api/v1/ashare/klines/600001.SZ', 404, 'unknown_symbol'],
  ['/api/v1/ashare/detail/sh999999', 404, 'unknown_symbol'],
  ['/api/v1/ashare/klines?symbols=sh999998,sh999999', 404, 'unknown_symbol'],
  ['/api/v1/ashare/detail?symbols=sh999998,sh999999', 404, 'unknown_symbol'],
  ['/api/v1/ashare/calendar?start=2025-03-14&end=2025-03-01', 400, 'invalid_parameter'],
  ['/api/v1/ashare/calendar?limit=0', 400, 'invalid_parameter'],
  ['/api/v1/nasdaq/calendar', 400, 'unknown_market'],
  ['/api/v1/ashare/actions/sh600001?start=2025-02-30', 400, 'invalid_parameter'],
  ['/api/v1/ashare/actions/sh600001?limit=5', 400, 'invalid_parameter'],
  ['/api/v1/ashare/actions/sh999999', 404, 'unknown_symbol'],
  ['/api/v1/macro/indicators?indicator=gdp', 400, 'invalid_parameter'],
  ['/api/v1/macro/indicators', 401, 'unauthorized', null],
];

for (const [url, status, code, plan = 'pro'] of ERRORS) {
  test(`GET ${url} (${plan ?? 'no key'}) is a documented ${status} ${code}`, async () => {
    const res = await call(url, plan);
    assert.equal(res.status, status, res.text);
    assert.equal(res.body?.code, code);
    assertDocumented(res, url, plan);
  });
}

test('an invalid key is a documented 401 unauthorized', async () => {
  const res = await call('/api/v1/markets', null, { key: 'mdq_nosuchkey1_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
  assert.equal(res.status, 401);
  assert.equal(res.body.code, 'unauthorized');
  assertDocumented(res, '/api/v1/markets', null);
});

test('an unknown route is a 404 not_found problem', async () => {
  for (const url of ['/api/v1/nope', '/api/v1/ashare/klines/sh600001/extra', '/api/v2/markets'])
    assertProblem(await call(url), 404, 'not_found');
});

test('a method other than GET or OPTIONS on a documented path is a 405 problem with Allow: GET, OPTIONS', async () => {
  for (const method of ['POST', 'DELETE', 'PUT']) {
    const res = await call('/api/v1/ashare/klines/sh600001', 'pro', { method });
    assertProblem(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET, OPTIONS');
  }
});

test('GET /macro on a snapshot without macro data is a documented 404 macro_not_ready', async (t) => {
  const dir = await tempDir('mdq-nomacro-');
  t.after(() => dir.cleanup());
  const folder = join(dir.path, 'snapshot');
  await cp(FIXTURE, folder, { recursive: true });
  await rm(join(folder, 'macro.csv'));
  const other = await startTestServer({ snapshot: folder });
  t.after(() => other.close());
  const res = await other.get('/api/v1/macro');
  assert.equal(res.status, 404, res.text);
  assert.equal(res.body.code, 'macro_not_ready');
  assertDocumented(res, '/api/v1/macro', 'pro');
});

// ---- limits ----------------------------------------------------------------------------

test('an exhausted daily quota is a documented 429 quota_exhausted; /quota is still a documented 200', async () => {
  const key = server.guard.authenticate(server.keys.enterprise)!;
  server.guard.charge(key, key.plan.dailyQuota!, Date.now());
  const refused = await call('/api/v1/ashare/klines/sh600001', 'enterprise');
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.body.code, 'quota_exhausted');
  assertDocumented(refused, '/api/v1/ashare/klines/sh600001', 'enterprise');
  const quota = await call('/api/v1/quota', 'enterprise');
  assert.equal(quota.status, 200);
  assert.equal(quota.body.remaining, 0);
  assertDocumented(quota, '/api/v1/quota', 'enterprise');
});

test('an empty rate bucket is a documented 429 rate_limited with Retry-After', async () => {
  let res: ApiResponse | undefined;
  for (let i = 0; i < 40 && res?.status !== 429; i++) res = await call('/api/v1/quota', 'free');
  assert.equal(res!.status, 429, 'the free bucket (30 a minute) runs dry within 40 requests');
  assert.equal(res!.body.code, 'rate_limited');
  assertDocumented(res!, '/api/v1/quota', 'free');
});

// ---- server states ---------------------------------------------------------------------

/** Runs `fn` with the server's dataset replaced, then puts the real one back. */
async function withDataset<T>(dataset: Dataset | null, fn: () => Promise<T>): Promise<T> {
  const real = server.state.dataset;
  server.state.dataset = dataset;
  try {
    return await fn();
  } finally {
    server.state.dataset = real;
  }
}

test('with no snapshot loaded, API paths and /healthz are documented 503 not_ready', async () => {
  await withDataset(null, async () => {
    for (const [url, plan] of [
      ['/api/v1/markets', 'pro'],
      ['/api/v1/ashare/klines/sh600001', 'pro'],
      ['/healthz', null],
    ] as const) {
      const res = await call(url, plan);
      assert.equal(res.status, 503, `${url}: ${res.text}`);
      assert.equal(res.body.code, 'not_ready');
      assertDocumented(res, url, plan);
    }
  });
});

test('an unexpected exception is a documented 500 internal_error without a stack trace', async () => {
  // A dataset with no markets makes the handler throw a TypeError.
  await withDataset({ version: 'broken' } as unknown as Dataset, async () => {
    const res = await call('/api/v1/markets');
    assert.equal(res.status, 500, res.text);
    assert.equal(res.body.code, 'internal_error');
    assert.doesNotMatch(res.text, /TypeError|\bat .*\.js/);
    assertDocumented(res, '/api/v1/markets', 'pro');
  });
});

test('while draining, /healthz and API paths are documented 503 shutting_down', async () => {
  server.state.draining = true;
  try {
    for (const [url, plan] of [
      ['/healthz', null],
      ['/api/v1/markets', 'pro'],
    ] as const) {
      const res = await call(url, plan);
      assert.equal(res.status, 503, `${url}: ${res.status} ${res.text}`);
      assert.equal(res.body.code, 'shutting_down');
      assertDocumented(res, url, plan);
    }
  } finally {
    server.state.draining = false;
  }
});
