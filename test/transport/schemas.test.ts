// The response schemas: compiled serialisers equal JSON.stringify, schemas are valid 2020-12, the OpenAPI document holds together.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { buildOpenApi } from '../../transport/openapi.js';
import { PROBLEMS } from '../../transport/problem.js';
import { SCHEMAS, type SchemaName as ShapeName } from '../../transport/schemas/responses.js';
import { serialisers } from '../../transport/serialise/compile.js';

/** Ajv in strict mode; union types (`["number","null"]`) are plain 2020-12, so they are allowed. */
function strictAjv(): InstanceType<typeof Ajv2020.default> {
  const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

// ---- representative values, one list per shape ----------------------------------------

const awkwardNumbers = { zero: 0, tenth: 0.1, tiny: 1e-7, negZero: -0, big: 9007199254740991, huge: 1e21, negative: -12.3456 };
const names = ['浦发银行', 'Sample "Fruit" Inc.', 'back\\slash', 'tab\there\nnewline', 'emoji 📈', 'bell\u0007', 'line\u2028sep', ''];

const allColumns = (fill: (name: string, i: number) => unknown): Record<string, unknown> =>
  Object.fromEntries(SNAPSHOT_COLUMNS.map((c, i) => [c.name, fill(c.name, i)]));
const numbers = Object.values(awkwardNumbers);
const fullSnapshot = allColumns((name, i) =>
  name === 'symbol' ? 'sh600001' : name === 'date' ? '2025-03-14' : ['name', 'market_name', 'market_type'].includes(name) ? names[i % names.length] : i % 5 === 0 ? null : numbers[i % numbers.length],
);
const nullSnapshot = allColumns((name) => (name === 'symbol' ? 'sh600008' : null));
const fullKline = { symbol: 'sh600001', date: '2025-03-14', open: 0.1, high: 1e-7, low: -0, close: null, volume: 9007199254740991, amount: 1e21, adj_factor: 2.157024 };
const closeOnly = { symbol: 'sh600001', date: '2025-03-13', close: 6.18, adj_factor: 1 };

const SAMPLES: Record<ShapeName, unknown[]> = {
  problem: [
    { type: 'about:blank', title: 'Bad Request', status: 400, code: 'invalid_parameter', detail: "fields: unknown column 'föö'", param: 'fields' },
    { type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'no route for GET /api/v1/“x”' },
  ],
  health: [{ status: 'ok', data_version: '2025-06-30' }],
  markets: [
    { count: 2, data: [{ market: 'ashare', symbols: 3000, rows: 9007199254740991, start_date: '2000-01-04', end_date: '2025-06-30' }, { market: 'crypto', symbols: 0, rows: 0, start_date: null, end_date: null }] },
    { count: 0, data: [] },
  ],
  symbols: [{ market: 'hkstock', total: 9, count: names.length + 1, limit: 50, offset: 0, data: [...names.map((name, i) => ({ symbol: `hk0070${i}`, name })), { symbol: 'hk09988', name: null }] }],
  klines: [
    { market: 'ashare', symbol: 'sh600001', count: 2, total: 40, offset: 0, limit: 100, fields: ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'], data: [fullKline, { ...fullKline, open: null, high: null }] },
    { market: 'ashare', symbol: 'sh600001', count: 1, total: 1, offset: 3, limit: 500, fields: ['symbol', 'date', 'close', 'adj_factor'], data: [closeOnly] },
    { market: 'usstock', symbol: 'usAAPL', count: 0, total: 0, offset: 0, limit: 1, fields: ['symbol', 'date', 'adj_factor'], data: [] },
  ],
  klinesBatch: [
    { market: 'ashare', count: 2, limit: 100, offset: 0, fields: ['symbol', 'date', 'close', 'volume', 'adj_factor'], data: { sh600001: [{ symbol: 'sh600001', date: '2025-03-14', close: 6.3, volume: 0, adj_factor: 2.157024 }], sz000002: [{ symbol: 'sz000002', date: '2025-03-14', close: null, volume: null, adj_factor: 1 }] } },
    { market: 'ashare', count: 0, limit: 5, offset: 2, fields: ['symbol', 'date', 'adj_factor'], data: { sh600001: [] }, missing: ['sh999999', '"quoted"'] },
  ],
  detail: [
    { market: 'ashare', symbol: 'sh600001', count: 1, data: fullSnapshot },
    { market: 'ashare', symbol: 'sh600008', count: 1, data: nullSnapshot },
    { market: 'ashare', symbol: 'sh600001', count: 1, data: { symbol: 'sh600001', date: '2025-03-14', pe_ratio: 1e-7, close_vs_52w_high: -0 } },
  ],
  detailBatch: [
    { market: 'ashare', count: 2, data: { sh600001: fullSnapshot, sh600008: nullSnapshot } },
    { market: 'hkstock', count: 1, data: { hk00700: { symbol: 'hk00700', date: null, wb_ratio: 0.1 } }, missing: ['hk99999'] },
  ],
  screen: [
    { market: 'ashare', total: 3, count: 2, limit: 50, offset: 0, sort: 'change_percent', order: 'desc', data: [{ symbol: 'sh600001', date: '2025-03-14', name: '示例长江', close: 6.3, change_percent: 1.9417 }, { symbol: 'sh600007', date: null, name: null, close: null, change_percent: null }] },
    { market: 'usstock', total: 0, count: 0, limit: 100, offset: 10, sort: 'pe_ratio', order: 'asc', data: [] },
  ],
  macro: [
    { count: 2, total: 5, limit: 100, offset: 0, data: [{ indicator: 'gdp', date: '2024-12-31', data: { GDP_GDP: 1349084.0, GDP_GDP_YOY: 5.4, GDP_PRIMARY_YOY: null } }, { indicator: 'cpi_ppi', date: '2025-01-31', data: { CPI_CPI_YOY: 0.1, PPI_PPI_YOY: -2.3, CPI_CPI_MOM: -0, CPI_CORE_YOY: 1e-7 } }] },
    { count: 0, total: 0, limit: 1, offset: 9, data: [] },
  ],
  quota: [
    { plan: 'pro', org_name: 'Desk “A” ✓', daily_quota: 200000, used: 0, remaining: 200000, requests_today: 1, reset_at: '2025-03-16T00:00:00.000Z' },
    { plan: 'internal', org_name: '', daily_quota: null, used: 9007199254740991, remaining: null, requests_today: 0, reset_at: '2025-03-16T00:00:00Z' },
  ],
};

// ---- (a) serialisers -------------------------------------------------------------------

test('every response shape has a compiled serialiser and representative sample values', () => {
  assert.deepEqual(Object.keys(serialisers).sort(), Object.keys(SCHEMAS).sort(), 'one serialiser per schema');
  for (const shape of Object.keys(SCHEMAS) as ShapeName[]) assert.ok(SAMPLES[shape]?.length > 0, `samples for ${shape}`);
});

test('the samples are values of their shape (they validate against the schema)', () => {
  const ajv = strictAjv();
  for (const [shape, values] of Object.entries(SAMPLES) as [ShapeName, unknown[]][]) {
    const validate = ajv.compile(SCHEMAS[shape]);
    values.forEach((value, i) => assert.ok(validate(value), `${shape}[${i}] should validate: ${ajv.errorsText(validate.errors)}`));
  }
});

for (const shape of Object.keys(SCHEMAS) as ShapeName[]) {
  test(`the ${shape} serialiser writes exactly JSON.stringify's text, key order included`, () => {
    SAMPLES[shape].forEach((value, i) => assert.equal(serialisers[shape](value), JSON.stringify(value), `${shape}[${i}]`));
  });
}

test('serialised numbers keep JSON.stringify forms: 0.1, 1e-7, -0 as 0, 2^53-1, 1e+21', () => {
  const row = { ...fullKline, close: 0.1 };
  const text = serialisers.klines({ market: 'ashare', symbol: 'sh600001', count: 1, total: 1, offset: 0, limit: 1, fields: [], data: [row] });
  assert.match(text, /"open":0\.1,"high":1e-7,"low":0,"close":0\.1,"volume":9007199254740991,"amount":1e\+21,/);
});

test('keys come out in schema order (the snapshot table order) whatever order the value was built in', () => {
  const row = { name: 'x', close: 1, symbol: 'sh600001', date: '2025-03-14' };
  const text = serialisers.detail({ market: 'ashare', symbol: 'sh600001', count: 1, data: row });
  assert.equal(text, '{"market":"ashare","symbol":"sh600001","count":1,"data":{"symbol":"sh600001","date":"2025-03-14","name":"x","close":1}}');
});

test('a lone surrogate in a name is escaped as JSON.stringify escapes it', () => {
  const value = { market: 'ashare', total: 1, count: 1, limit: 50, offset: 0, data: [{ symbol: 'sh600001', name: 'half \ud800 pair' }] };
  assert.equal(serialisers.symbols(value), JSON.stringify(value));
});

// ---- (b) schemas and the OpenAPI document ----------------------------------------------

test('every response schema compiles in Ajv strict mode as JSON Schema 2020-12', () => {
  const ajv = strictAjv();
  for (const [shape, schema] of Object.entries(SCHEMAS)) assert.doesNotThrow(() => ajv.compile(schema), `${shape} compiles`);
});

const doc = buildOpenApi() as any;
const SPEC_PATHS = ['/markets', '/{market}/symbols', '/{market}/klines/{symbol}', '/{market}/klines', '/{market}/detail/{symbol}', '/{market}/detail', '/{market}/screen', '/macro', '/quota'];
const operations = (): [string, any][] => Object.entries(doc.paths).map(([path, item]: [string, any]) => [path, item.get]);

/** Every `$ref` string in `node`, with where it was found. */
function refs(node: unknown, at = '#', out: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) node.forEach((v, i) => refs(v, `${at}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push([value, at]);
      else refs(value, `${at}/${key}`, out);
    }
  }
  return out;
}
const pointer = (ref: string): unknown =>
  ref.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).reduce<any>((node, key) => (node === undefined ? undefined : node[key]), doc);

test('the document is OpenAPI 3.1 with a server under /api/v1 and info saying the demo data is synthetic', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.servers, [{ url: '/api/v1' }]);
  assert.ok(doc.info.title && doc.info.version, 'info has a title and a version');
  assert.match(doc.info.description, /synthetic/i);
});

test('the document survives a JSON round trip unchanged (nothing in it is not JSON)', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
});

test('every path of the spec is documented with a GET, plus /healthz and /openapi.json', () => {
  for (const path of [...SPEC_PATHS, '/healthz', '/openapi.json']) assert.ok(doc.paths[path]?.get, `GET ${path} documented`);
  assert.equal(Object.keys(doc.paths).length, SPEC_PATHS.length + 2, 'no path beyond those');
});

test('every $ref of the document resolves', () => {
  const all = refs(doc);
  assert.ok(all.length > 0);
  for (const [ref, at] of all) {
    assert.ok(ref.startsWith('#/'), `${at}: local ref ${ref}`);
    assert.notEqual(pointer(ref), undefined, `${at}: ${ref} resolves`);
  }
});

test('the component schemas are the SCHEMAS objects themselves, not copies', () => {
  const published = Object.values(doc.components.schemas);
  for (const [shape, schema] of Object.entries(SCHEMAS)) assert.ok(published.includes(schema), `${shape} is published as is`);
  assert.equal(published.length, Object.keys(SCHEMAS).length);
});

test('every problem code of the catalogue appears in the document', () => {
  const text = JSON.stringify(doc);
  for (const code of Object.keys(PROBLEMS)) assert.ok(text.includes(`\`${code}\``), `${code} is documented`);
});

test('an ApiKey scheme in header X-API-Key applies globally; /healthz and /openapi.json opt out', () => {
  assert.deepEqual(doc.components.securitySchemes.ApiKey, { ...doc.components.securitySchemes.ApiKey, type: 'apiKey', in: 'header', name: 'X-API-Key' });
  assert.deepEqual(doc.security, [{ ApiKey: [] }]);
  for (const [path, op] of operations()) {
    if (path === '/healthz' || path === '/openapi.json') assert.deepEqual(op.security, [], `${path} needs no key`);
    else assert.equal(op.security, undefined, `${path} inherits the key requirement`);
  }
});

test('operation ids are unique and every operation answers 200 with a schema', () => {
  const ids = operations().map(([, op]) => op.operationId);
  assert.equal(new Set(ids).size, ids.length);
  for (const [path, op] of operations()) assert.ok(op.responses['200'].content['application/json'].schema, `${path} 200 has a schema`);
});

test('every {placeholder} of a path is a required path parameter, and no other path parameter exists', () => {
  for (const [path, op] of operations()) {
    const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path');
    assert.deepEqual(declared.map((p: any) => p.name), placeholders, path);
    for (const p of declared) assert.equal(p.required, true, `${path} {${p.name}} required`);
  }
});

test('every parameter has a description and a schema that compiles in strict mode', () => {
  const ajv = strictAjv();
  for (const [path, op] of operations()) {
    const names = new Set<string>();
    for (const p of op.parameters ?? []) {
      assert.ok(typeof p.description === 'string' && p.description.length > 0, `${path} ${p.name} described`);
      assert.ok(!names.has(`${p.in}:${p.name}`), `${path} ${p.name} declared once`);
      names.add(`${p.in}:${p.name}`);
      assert.doesNotThrow(() => ajv.compile(p.schema), `${path} ${p.name} schema compiles`);
    }
  }
});

test('list parameters are comma-separated (form style, not exploded) arrays', () => {
  for (const [path, op] of operations()) {
    for (const p of (op.parameters ?? []).filter((q: any) => q.schema.type === 'array')) {
      assert.equal(p.style, 'form', `${path} ${p.name}`);
      assert.equal(p.explode, false, `${path} ${p.name}`);
      assert.match(p.description, /comma-separated/i);
    }
  }
});

test('the screen documents min_/max_ bounds with the whole whitelist', () => {
  const bounds = doc.paths['/{market}/screen'].get.parameters.find((p: any) => p.name === 'bounds');
  assert.ok(bounds, 'a bounds parameter');
  const validate = strictAjv().compile(bounds.schema);
  assert.ok(validate({ min_pe_ratio: 0, max_close_vs_52w_high: -5 }), 'whitelisted bounds accepted');
  assert.ok(!validate({ min_name: 1 }), 'a string column is not a bound');
  for (const column of SNAPSHOT_COLUMNS.filter((c) => c.kind === 'number')) assert.ok(bounds.description.includes(column.name), `${column.name} listed`);
});

test('which endpoints charge rows is documented: all but /quota', () => {
  for (const path of SPEC_PATHS) {
    const op = doc.paths[path].get;
    if (path === '/quota') assert.match(op.description, /charges no rows/i);
    else assert.match(op.description, /charges the response's `count` rows/i, path);
  }
});

test('every error response is application/problem+json over the Problem schema, narrowed to its status', () => {
  for (const [path, op] of operations()) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (status === '200') continue;
      const schema = response.content['application/problem+json']?.schema;
      assert.ok(schema, `${path} ${status} is problem+json`);
      assert.deepEqual(schema.allOf[0], { $ref: '#/components/schemas/Problem' });
      assert.equal(schema.allOf[1].properties.status.const, Number(status));
      for (const code of schema.allOf[1].properties.code.enum) {
        assert.equal(PROBLEMS[code as keyof typeof PROBLEMS].status, Number(status), `${path}: ${code} is a ${status}`);
        assert.ok(response.description.includes(`\`${code}\``), `${path} ${status} describes ${code}`);
      }
    }
  }
});

test('every API path lists the errors of the check order: 400, 401, 429, 500, 503; /quota has no quota_exhausted', () => {
  const codesOf = (path: string, status: string): string[] => doc.paths[path].get.responses[status]?.content['application/problem+json'].schema.allOf[1].properties.code.enum ?? [];
  for (const path of SPEC_PATHS) {
    for (const status of ['400', '401', '429', '500', '503']) assert.ok(doc.paths[path].get.responses[status], `${path} documents ${status}`);
    assert.ok(codesOf(path, '429').includes('rate_limited'), `${path} 429 rate_limited`);
    assert.equal(codesOf(path, '429').includes('quota_exhausted'), path !== '/quota', `${path} quota_exhausted`);
    assert.equal(codesOf(path, '400').includes('unknown_market'), path.startsWith('/{market}'), `${path} unknown_market`);
    assert.equal(codesOf(path, '404').includes('unknown_symbol'), /klines|detail/.test(path), `${path} unknown_symbol`);
    assert.equal(codesOf(path, '400').includes('batch_too_large'), path === '/{market}/klines' || path === '/{market}/detail', `${path} batch_too_large`);
  }
  assert.deepEqual(codesOf('/macro', '404'), ['macro_not_ready']);
});

test('response headers are documented: data version and limits on 200, Retry-After on 429 and 503', () => {
  for (const path of SPEC_PATHS) {
    const responses = doc.paths[path].get.responses;
    assert.deepEqual(Object.keys(responses['200'].headers), ['X-Data-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-Quota-Limit', 'X-Quota-Remaining'], path);
    assert.ok(responses['429'].headers['Retry-After'], `${path} 429 Retry-After`);
    assert.ok(responses['503'].headers['Retry-After'], `${path} 503 Retry-After`);
  }
});

/** `node` with every `$ref` replaced by what it points at (the document has no cycles). */
const deref = (node: unknown): unknown =>
  Array.isArray(node) ? node.map(deref)
  : node !== null && typeof node === 'object' ? ('$ref' in node ? deref(pointer((node as { $ref: string }).$ref)) : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)])))
  : node;

test('every response schema of the document compiles in strict mode once its refs are resolved', () => {
  const ajv = strictAjv();
  for (const [path, op] of operations()) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      for (const [type, media] of Object.entries<any>(response.content)) assert.doesNotThrow(() => ajv.compile(deref(media.schema) as object), `${path} ${status} ${type}`);
    }
  }
});
