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
import { fullKline, SAMPLES } from '../helpers/shape-samples.js';

/** Ajv in strict mode; union types (`["number","null"]`) are plain 2020-12, so they are allowed. */
function strictAjv(): InstanceType<typeof Ajv2020.default> {
  const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

// ---- (a) serialisers -------------------------------------------------------------------

test('every response shape has a compiled serialiser and representative sample values', () => {
  assert.deepEqual(Object.keys(serialisers).sort(), Object.keys(SCHEMAS).sort(), 'one serialiser per schema');
  for (const shape of Object.keys(SCHEMAS) as ShapeName[])
    assert.ok(SAMPLES[shape]?.length > 0, `samples for ${shape}`);
});

test('the samples are values of their shape (they validate against the schema)', () => {
  const ajv = strictAjv();
  for (const [shape, values] of Object.entries(SAMPLES) as [ShapeName, unknown[]][]) {
    const validate = ajv.compile(SCHEMAS[shape]);
    values.forEach((value, i) =>
      assert.ok(validate(value), `${shape}[${i}] should validate: ${ajv.errorsText(validate.errors)}`),
    );
  }
});

for (const shape of Object.keys(SCHEMAS) as ShapeName[]) {
  test(`the ${shape} serialiser writes exactly JSON.stringify's text, key order included`, () => {
    SAMPLES[shape].forEach((value, i) =>
      assert.equal(serialisers[shape](value), JSON.stringify(value), `${shape}[${i}]`),
    );
  });
}

test('serialised numbers keep JSON.stringify forms: 0.1, 1e-7, -0 as 0, 2^53-1, 1e+21', () => {
  const row = { ...fullKline, close: 0.1 };
  const text = serialisers.klines({
    market: 'ashare',
    symbol: 'sh600001',
    count: 1,
    total: 1,
    offset: 0,
    limit: 1,
    fields: [],
    data: [row],
  });
  assert.match(text, /"open":0\.1,"high":1e-7,"low":0,"close":0\.1,"volume":9007199254740991,"amount":1e\+21,/);
});

test('keys come out in schema order (the snapshot table order) whatever order the value was built in', () => {
  const row = { name: 'x', close: 1, symbol: 'sh600001', date: '2025-03-14' };
  const text = serialisers.detail({ market: 'ashare', symbol: 'sh600001', count: 1, data: row });
  assert.equal(
    text,
    '{"market":"ashare","symbol":"sh600001","count":1,"data":{"symbol":"sh600001","date":"2025-03-14","name":"x","close":1}}',
  );
});

test('a lone surrogate in a name is escaped as JSON.stringify escapes it', () => {
  const value = {
    market: 'ashare',
    total: 1,
    count: 1,
    limit: 50,
    offset: 0,
    data: [{ symbol: 'sh600001', name: 'half \ud800 pair' }],
  };
  assert.equal(serialisers.symbols(value), JSON.stringify(value));
});

// ---- (b) schemas and the OpenAPI document ----------------------------------------------

test('every response schema compiles in Ajv strict mode as JSON Schema 2020-12', () => {
  const ajv = strictAjv();
  for (const [shape, schema] of Object.entries(SCHEMAS))
    assert.doesNotThrow(() => ajv.compile(schema), `${shape} compiles`);
});

const doc = buildOpenApi() as any;
const SPEC_PATHS = [
  '/markets',
  '/{market}/symbols',
  '/{market}/klines/{symbol}',
  '/{market}/klines',
  '/{market}/detail/{symbol}',
  '/{market}/detail',
  '/{market}/screen',
  '/macro',
  '/quota',
  '/{market}/calendar',
  '/{market}/actions/{symbol}',
  '/macro/indicators',
];
/** The API paths that charge no rows (served with none left): no 429 quota_exhausted. */
const FREE_PATHS = ['/quota', '/macro/indicators'];
/** The documents served without a key: the health checks, version, metrics, this document and the flatbuffers schema. */
const KEYLESS_PATHS = [
  '/healthz',
  '/readyz',
  '/livez',
  '/version',
  '/metrics',
  '/openapi.json',
  '/asyncapi.json',
  '/schema.fbs',
  '/docs',
];
/** The streamed export: behind a key, in its own formats (CSV, Arrow, NDJSON), never JSON. */
const EXPORT_PATH = '/{market}/export';
/** Paths whose body is not JSON. */
const TEXT_PATHS = ['/schema.fbs', '/metrics', '/docs', EXPORT_PATH];
const operations = (): [string, any][] =>
  Object.entries(doc.paths).map(([path, item]: [string, any]) => [path, item.get]);

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
  ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => (node === undefined ? undefined : node[key]), doc);

test('the document is OpenAPI 3.1 with a server under /api/v1 and info saying the demo data is synthetic', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.servers, [{ url: '/api/v1' }]);
  assert.ok(doc.info.title && doc.info.version, 'info has a title and a version');
  assert.match(doc.info.description, /synthetic/i);
});

test('the document survives a JSON round trip unchanged (nothing in it is not JSON)', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
});

test('every path of the spec is documented with a GET, plus the keyless service paths (health, metrics, version, documents)', () => {
  for (const path of [...SPEC_PATHS, ...KEYLESS_PATHS, EXPORT_PATH])
    assert.ok(doc.paths[path]?.get, `GET ${path} documented`);
  assert.equal(Object.keys(doc.paths).length, SPEC_PATHS.length + KEYLESS_PATHS.length + 1, 'no path beyond those');
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
  for (const [shape, schema] of Object.entries(SCHEMAS))
    assert.ok(published.includes(schema), `${shape} is published as is`);
  assert.equal(published.length, Object.keys(SCHEMAS).length);
});

test('every problem code of the catalogue appears in the document', () => {
  const text = JSON.stringify(doc);
  for (const code of Object.keys(PROBLEMS)) assert.ok(text.includes(`\`${code}\``), `${code} is documented`);
});

test('an ApiKey scheme in header X-API-Key or a Bearer token applies globally; the keyless service paths opt out', () => {
  assert.deepEqual(doc.components.securitySchemes.ApiKey, {
    ...doc.components.securitySchemes.ApiKey,
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
  assert.deepEqual(doc.components.securitySchemes.Bearer, {
    ...doc.components.securitySchemes.Bearer,
    type: 'http',
    scheme: 'bearer',
  });
  assert.deepEqual(doc.security, [{ ApiKey: [] }, { Bearer: [] }], 'either one of the two');
  for (const [path, op] of operations()) {
    if (KEYLESS_PATHS.includes(path)) assert.deepEqual(op.security, [], `${path} needs no key`);
    else assert.equal(op.security, undefined, `${path} inherits the key requirement`);
  }
});

test('operation ids are unique and every operation answers 200 with a schema for each content type', () => {
  const ids = operations().map(([, op]) => op.operationId);
  assert.equal(new Set(ids).size, ids.length);
  for (const [path, op] of operations()) {
    const content = op.responses['200'].content;
    if (!TEXT_PATHS.includes(path)) assert.ok(content['application/json']?.schema, `${path} 200 has a JSON schema`);
    for (const [type, media] of Object.entries<any>(content))
      assert.ok(media.schema, `${path} 200 ${type} has a schema`);
  }
  assert.deepEqual(
    Object.keys(doc.paths['/schema.fbs'].get.responses['200'].content),
    ['text/plain; charset=utf-8'],
    '/schema.fbs is plain text',
  );
  assert.deepEqual(
    Object.keys(doc.paths['/metrics'].get.responses['200'].content),
    ['text/plain; version=0.0.4; charset=utf-8'],
    '/metrics is the Prometheus text format',
  );
  assert.deepEqual(
    Object.keys(doc.paths[EXPORT_PATH].get.responses['200'].content),
    ['text/csv; charset=utf-8', 'application/vnd.apache.arrow.stream', 'application/x-ndjson'],
    'the export streams CSV, Arrow or NDJSON',
  );
  const format = doc.paths[EXPORT_PATH].get.parameters.find((p: any) => p.name === 'format');
  assert.deepEqual(
    [format.schema.enum, format.schema.default],
    [['csv', 'arrow', 'ndjson'], undefined],
    'absent: Accept chooses',
  );
});

test('every API 200 offers every format under the content types answered: JSON, msgpack, flatbuffers, and CSV and Arrow for shapes with rows (all but /quota)', () => {
  for (const path of SPEC_PATHS) {
    const types = Object.keys(doc.paths[path].get.responses['200'].content);
    const expected = [
      'application/json',
      'application/msgpack',
      'application/x-flatbuffers',
      ...(path === '/quota' ? [] : ['text/csv; charset=utf-8', 'application/vnd.apache.arrow.stream']),
    ];
    assert.deepEqual(types, expected, path);
  }
});

test('every API path documents format= (json, msgpack, flatbuffers, csv, arrow) and a 406 not_acceptable', () => {
  for (const path of SPEC_PATHS) {
    const op = doc.paths[path].get;
    const format = op.parameters.find((p: any) => p.in === 'query' && p.name === 'format');
    assert.ok(format, `${path} declares format`);
    assert.deepEqual(format.schema.enum, ['json', 'msgpack', 'flatbuffers', 'csv', 'arrow'], `${path} format values`);
    assert.deepEqual(
      op.responses['406']?.content['application/problem+json'].schema.allOf[1].properties.code.enum,
      ['not_acceptable'],
      `${path} 406 not_acceptable`,
    );
  }
});

test('every {placeholder} of a path is a required path parameter, and no other path parameter exists', () => {
  for (const [path, op] of operations()) {
    const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path');
    assert.deepEqual(
      declared.map((p: any) => p.name),
      placeholders,
      path,
    );
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

test("list parameters keep OpenAPI's default style (form, exploded: repeated), and say the comma list is read too", () => {
  let lists = 0;
  for (const [path, op] of operations()) {
    for (const p of (op.parameters ?? []).filter((q: any) => q.schema.type === 'array')) {
      assert.equal(p.style, 'form', `${path} ${p.name}`);
      assert.equal(p.explode, true, `${path} ${p.name}`);
      assert.match(p.description, /comma-separated/i);
      assert.match(p.description, /repeated/i);
      lists++;
    }
  }
  assert.ok(lists >= 6, `${lists} list parameters`);
});

test('the screen declares each bound as its own parameter: min_ and max_ of every whitelisted column, numbers, optional', () => {
  const params = doc.paths['/{market}/screen'].get.parameters;
  const numeric = SNAPSHOT_COLUMNS.filter((c) => c.kind === 'number').map((c) => c.name);
  const bounds = params.filter((p: any) => /^(min|max)_/.test(p.name));
  assert.deepEqual(
    bounds.map((p: any) => p.name),
    numeric.flatMap((c) => [`min_${c}`, `max_${c}`]),
  );
  for (const p of bounds) {
    assert.deepEqual([p.in, p.required, p.schema], ['query', false, { type: 'number' }], p.name);
    assert.ok(p.description.includes(p.name.slice(4)), `${p.name} described`);
  }
  assert.equal(
    params.find((p: any) => p.name === 'bounds'),
    undefined,
    'no object parameter a generator would send as bounds[…]',
  );
});

test('every 200 lists its JSON media type first, as plain application/json', () => {
  for (const [path, op] of operations()) {
    if (TEXT_PATHS.includes(path) || path === EXPORT_PATH) continue;
    const types = Object.keys(op.responses['200'].content);
    assert.equal(types[0], 'application/json', path);
    assert.ok(!types.some((t) => t.startsWith('application/json;')), `${path}: no JSON type with parameters`);
  }
});

test('every operation has code samples (docs/api-notes.md): each data operation in curl, Python and TypeScript, each service path a curl line of its URL', () => {
  assert.deepEqual(
    operations()
      .map(([path]) => path)
      .sort(),
    [...SPEC_PATHS, EXPORT_PATH, ...KEYLESS_PATHS].sort(),
    'the operations are these',
  );
  for (const path of KEYLESS_PATHS) {
    const item = doc.paths[path];
    const url = item.servers === undefined ? `/api/v1${path}` : path;
    assert.deepEqual(item.get['x-codeSamples'], [
      { lang: 'Shell', label: 'curl', source: `curl 'http://127.0.0.1:8080${url}'` },
    ]);
  }
});

test('every data operation has code samples in curl, Python and TypeScript; the cross-section and the export are under Bulk data', () => {
  for (const path of [...SPEC_PATHS, EXPORT_PATH]) {
    const samples = doc.paths[path].get['x-codeSamples'];
    assert.ok(Array.isArray(samples), `${path} has x-codeSamples`);
    assert.deepEqual(
      samples.slice(0, 3).map((c: any) => c.lang),
      ['Shell', 'Python', 'TypeScript'],
      path,
    );
    for (const c of samples) assert.ok(c.label.length > 0 && c.source.length > 0, `${path} ${c.label}`);
    assert.match(samples[0].source, /^curl -H "X-API-Key: \$MDQ_KEY"/);
    assert.match(samples[1].source, /from mdq_client import Client/);
    assert.match(samples[2].source, /from '@mdq\/client'/);
  }
  const batch = doc.paths['/{market}/klines'].get;
  assert.ok(batch.tags.includes('Bulk data'), 'the batch K-lines (the cross-section) are listed under Bulk data');
  assert.ok(
    batch['x-codeSamples'].some((c: any) => /cross_section\(.*all=True/.test(c.source)),
    'with a whole-day sample',
  );
  assert.deepEqual(doc.paths[EXPORT_PATH].get.tags, ['Bulk data']);
  assert.ok(doc.tags.some((t: any) => t.name === 'Bulk data' && /cross-section/.test(t.description)));
});

test('which endpoints charge rows is documented: all but /quota and /macro/indicators', () => {
  for (const path of SPEC_PATHS) {
    const op = doc.paths[path].get;
    if (FREE_PATHS.includes(path)) assert.match(op.description, /charges no rows/i, path);
    else assert.match(op.description, /charges the response's `count` rows/i, path);
  }
});

test('every error response is application/problem+json over the Problem schema, narrowed to its status', () => {
  for (const [path, op] of operations()) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (status === '200' || status === '304') continue;
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

test('every API path lists the errors of the check order: 400, 401, 429, 500, 503; /quota and /macro/indicators have no quota_exhausted', () => {
  const codesOf = (path: string, status: string): string[] =>
    doc.paths[path].get.responses[status]?.content['application/problem+json'].schema.allOf[1].properties.code.enum ??
    [];
  for (const path of SPEC_PATHS) {
    for (const status of ['400', '401', '429', '500', '503'])
      assert.ok(doc.paths[path].get.responses[status], `${path} documents ${status}`);
    assert.ok(codesOf(path, '429').includes('rate_limited'), `${path} 429 rate_limited`);
    assert.equal(
      codesOf(path, '429').includes('quota_exhausted'),
      !FREE_PATHS.includes(path),
      `${path} quota_exhausted`,
    );
    assert.equal(
      codesOf(path, '400').includes('unknown_market'),
      path.startsWith('/{market}'),
      `${path} unknown_market`,
    );
    assert.equal(
      codesOf(path, '404').includes('unknown_symbol'),
      /klines|detail|actions/.test(path),
      `${path} unknown_symbol`,
    );
    assert.equal(
      codesOf(path, '400').includes('batch_too_large'),
      path === '/{market}/klines' || path === '/{market}/detail',
      `${path} batch_too_large`,
    );
  }
  assert.deepEqual(codesOf('/macro', '404'), ['macro_not_ready']);
  assert.deepEqual(codesOf('/macro/indicators', '404'), ['macro_not_ready']);
});

const LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
];
/** The paged answers (single K-lines, symbols, screen, macro, calendar): their 200 may carry `Link: rel="next"`. Batch K-lines page per symbol and have no total: no Link. */
const PAGED_PATHS = [
  '/{market}/symbols',
  '/{market}/klines/{symbol}',
  '/{market}/screen',
  '/macro',
  '/{market}/calendar',
  '/{market}/klines', // the cross-section (without symbols)
];

test('response headers are documented: version, request id, limits, ETag, caching and encoding on 200; Link on paged answers; Retry-After on 429 and 503', () => {
  for (const path of SPEC_PATHS) {
    const responses = doc.paths[path].get.responses;
    const link = PAGED_PATHS.includes(path) ? ['Link'] : [];
    assert.deepEqual(
      Object.keys(responses['200'].headers),
      [
        'X-Data-Version',
        'X-Request-Id',
        ...LIMIT_HEADERS,
        'ETag',
        'Cache-Control',
        'Vary',
        'Content-Encoding',
        ...link,
      ],
      `${path} 200`,
    );
    assert.deepEqual(
      Object.keys(responses['304'].headers),
      ['X-Data-Version', 'X-Request-Id', ...LIMIT_HEADERS, 'ETag', 'Cache-Control', 'Vary'],
      `${path} 304`,
    );
    assert.equal(responses['304'].content, undefined, `${path} 304 has no body`);
    assert.ok(responses['429'].headers['Retry-After'], `${path} 429 Retry-After`);
    assert.ok(responses['503'].headers['Retry-After'], `${path} 503 Retry-After`);
  }
});

test('X-Request-Id is documented on every response of every operation, errors included', () => {
  for (const [path, op] of operations()) {
    for (const [status, response] of Object.entries<any>(op.responses))
      assert.ok(response.headers?.['X-Request-Id'], `${path} ${status} X-Request-Id`);
  }
});

test('required response headers are the ones every such answer carries; Content-Encoding, Link and the limit headers are optional', () => {
  const { headers } = doc.components;
  for (const name of ['X-Data-Version', 'X-Request-Id', 'Retry-After', 'ETag', 'Cache-Control', 'Vary'])
    assert.equal(headers[name].required, true, `${name} required`);
  for (const name of ['Content-Encoding', 'Link', ...LIMIT_HEADERS])
    assert.notEqual(headers[name].required, true, `${name} optional`);
  assert.deepEqual(headers['Content-Encoding'].schema.enum, ['br', 'gzip'], 'Content-Encoding is br or gzip');
});

/** `node` with every `$ref` replaced by what it points at (the document has no cycles). */
const deref = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(deref)
    : node !== null && typeof node === 'object'
      ? '$ref' in node
        ? deref(pointer((node as { $ref: string }).$ref))
        : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)]))
      : node;

test('every response schema of the document compiles in strict mode once its refs are resolved', () => {
  const ajv = strictAjv();
  for (const [path, op] of operations()) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      for (const [type, media] of Object.entries<any>(response.content ?? {}))
        assert.doesNotThrow(() => ajv.compile(deref(media.schema) as object), `${path} ${status} ${type}`);
    }
  }
});
