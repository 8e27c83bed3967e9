// A client generated from the served OpenAPI document by openapi-typescript and openapi-fetch, both
// at their defaults (lists sent repeated, each screen bound its own parameter, the body parsed as
// JSON): it type-checks, and its batch, screen, detail and cross-section calls answer
// what the comma-list forms answer; told its media type (`createClient<paths, 'application/json'>`),
// `r.data.data` reads without narrowing. Also: every curl sample's URL in the document is served.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildOpenApi } from '../../transport/openapi.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { startAnswerServer } from '../helpers/e2e.js';
import { REPO } from '../helpers/readme-blocks.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const GENERATE = fileURLToPath(new URL('node_modules/openapi-typescript/bin/cli.js', REPO));

/** The calls, as a user of the generated client writes them (the repeated-list defaults untouched). */
const CALLS = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({
  baseUrl: \`\${process.env.MDQ_URL}/api/v1\`,
  headers: { 'X-API-Key': process.env.MDQ_KEY! },
});
const market = { market: 'ashare' as const };
export const batch = await client.GET('/{market}/klines', {
  params: { path: market, query: { symbols: ['sh600001', 'sz000002'], fields: ['open', 'close'], limit: 3 } },
});
export const screen = await client.GET('/{market}/screen', {
  params: { path: market, query: { min_pe_ratio: 0, max_pe_ratio: 100, sort: 'pe_ratio' } },
});
export const detail = await client.GET('/{market}/detail', {
  params: { path: market, query: { symbols: ['sh600001', 'sz000002'], fields: ['name', 'close'] } },
});
export const cross = await client.GET('/{market}/klines', {
  params: { path: market, query: { date: '2025-03-14', fields: ['close'] } },
});
// r.data is typed from the 200's content: the JSON shape, or text for the other formats (CSV,
// Arrow, FlatBuffers: none of which this client asks for), so one typeof check reads it.
export const keys = typeof batch.data === 'object' && !Array.isArray(batch.data.data) ? Object.keys(batch.data.data) : [];
export const firstScreenRow = typeof screen.data === 'object' ? screen.data.data[0]?.symbol : undefined;
// Or the client told its media type (openapi-fetch's second type argument): r.data is the JSON shape alone.
const json = createClient<paths, 'application/json'>({
  baseUrl: \`\${process.env.MDQ_URL}/api/v1\`,
  headers: { 'X-API-Key': process.env.MDQ_KEY! },
});
const jsonScreen = await json.GET('/{market}/screen', { params: { path: market, query: { min_pe_ratio: 0, max_pe_ratio: 100, sort: 'pe_ratio' } } });
export const jsonSymbols = jsonScreen.data?.data.map((row) => row.symbol);
`;

let server: TestServer;
let project: string;

before(async () => {
  server = await startAnswerServer();
  project = await mkdtemp(join(tmpdir(), 'mdq-generated-'));
  await symlink(fileURLToPath(new URL('node_modules', REPO)), join(project, 'node_modules'));
  await writeFile(join(project, 'package.json'), '{"type":"module","private":true}\n');
  const doc = await fetch(`http://127.0.0.1:${server.port}/api/v1/openapi.json`);
  await writeFile(join(project, 'openapi.json'), await doc.text());
});
after(async () => {
  await server?.close();
  if (project !== undefined) await rm(project, { recursive: true, force: true });
});

test('openapi-typescript + openapi-fetch at their defaults: the calls type-check and answer what the comma-list forms answer', async () => {
  await run(process.execPath, [GENERATE, 'openapi.json', '-o', 'schema.d.ts'], { cwd: project });
  await writeFile(join(project, 'calls.ts'), CALLS);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        types: ['node'],
        outDir: 'out',
      },
      files: ['calls.ts'],
    }),
  );
  await run(process.execPath, [TSC, '-p', '.'], { cwd: project }).catch((e: { stdout?: string }) =>
    assert.fail(`the generated client does not type-check:\n${e.stdout ?? ''}`),
  );
  process.env.MDQ_URL = `http://127.0.0.1:${server.port}`;
  process.env.MDQ_KEY = server.keys.pro;
  const got = (await import(pathToFileURL(join(project, 'out/calls.js')).href)) as Record<
    string,
    { data?: unknown; error?: unknown; response: Response }
  > & { jsonSymbols: string[] };
  const plain = async (path: string): Promise<unknown> => {
    const res = await server.get(`/api/v1${path}`, { key: server.keys.pro });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const expected: [string, string][] = [
    ['batch', '/ashare/klines?symbols=sh600001,sz000002&fields=open,close&limit=3'],
    ['screen', '/ashare/screen?min_pe_ratio=0&max_pe_ratio=100&sort=pe_ratio'],
    ['detail', '/ashare/detail?symbols=sh600001,sz000002&fields=name,close'],
    ['cross', '/ashare/klines?date=2025-03-14&fields=close'],
  ];
  for (const [name, path] of expected) {
    const r = got[name];
    assert.equal(r.response.status, 200, `${name}: ${JSON.stringify(r.error)}`);
    assert.match(r.response.url, name === 'screen' ? /min_pe_ratio=0&max_pe_ratio=100/ : /./);
    assert.deepEqual(r.data, await plain(path), name);
  }
  assert.match(got.batch.response.url, /symbols=sh600001&symbols=sz000002/, 'the list went out repeated');
  assert.deepEqual(got.keys, ['sh600001', 'sz000002']);
  assert.equal(got.firstScreenRow, (got.screen.data as { data: { symbol: string }[] }).data[0].symbol);
  assert.ok(Array.isArray((got.screen.data as { data: unknown[] }).data));
  assert.deepEqual(
    got.jsonSymbols,
    (got.screen.data as { data: { symbol: string }[] }).data.map((r) => r.symbol),
    "the media-typed client's r.data.data, read without narrowing",
  );
});

test("every curl sample's URL in the document is served (200): the data operations' to a pro key, the service paths' to none", async (t) => {
  // With /metrics, as a server runs by default.
  const served = await startTestServer({
    metrics: { reloads: () => ({ counts: {}, lastSeconds: null }), poolQueue: () => 0 },
  });
  t.after(() => served.close());
  const doc = buildOpenApi() as {
    paths: Record<string, { get: { security?: unknown[]; 'x-codeSamples': { lang: string; source: string }[] } }>;
  };
  let n = 0;
  for (const [path, { get }] of Object.entries(doc.paths))
    for (const sample of get['x-codeSamples'].filter((c) => c.lang === 'Shell')) {
      const url = /'http:\/\/127\.0\.0\.1:8080([^']+)'/.exec(sample.source)?.[1];
      assert.ok(url !== undefined, `${path}: ${sample.source}`);
      const keyed = /X-API-Key: \$MDQ_KEY/.test(sample.source);
      assert.equal(keyed, get.security === undefined, `${path}: a key exactly where the operation needs one`);
      const res = await fetch(`http://127.0.0.1:${served.port}${url}`, {
        headers: keyed ? { 'x-api-key': served.keys.pro } : {},
      });
      await res.arrayBuffer();
      assert.equal(res.status, 200, `${path}: ${url}`);
      n++;
    }
  assert.ok(n >= Object.keys(doc.paths).length, `${n} samples`);
});
