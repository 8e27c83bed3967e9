// The TypeScript client (clients/typescript, built by `npm run build` from the served OpenAPI
// document) against a real server: every endpoint's method answers what a plain GET answers, lists
// and screen bounds go out the way the server reads them, Link paging gathers every page, problems
// come back as MdqError, msgpack and Arrow decode, the export streams, and the example runs.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '../helpers/api-server.js';
import { startAnswerServer } from '../helpers/e2e.js';

const CLIENT = new URL('../../../clients/typescript/dist/', import.meta.url);
const run = promisify(execFile);

// The client is built after this suite is compiled, so it is loaded by path and typed loosely here.
type AnyClient = any;
let mdq: {
  Client: new (o: object) => AnyClient;
  MdqError: new (...a: never[]) => Error;
  collect<T>(i: AsyncIterable<T>): Promise<T[]>;
};
let server: TestServer;
let client: AnyClient;

before(async () => {
  mdq = await import(new URL('index.js', CLIENT).href);
  server = await startAnswerServer();
  client = new mdq.Client({ baseUrl: `http://127.0.0.1:${server.port}`, key: server.keys.pro });
});
after(() => server.close());

/** What a plain GET of `path` answers (JSON), for the client's answer to be held to. */
async function plain(path: string): Promise<unknown> {
  const res = await server.get(`/api/v1${path}`, { key: server.keys.pro });
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.body;
}

test('every endpoint has a method answering what a plain GET answers', async () => {
  const cases: [() => Promise<unknown>, string][] = [
    [() => client.markets(), '/markets'],
    [() => client.symbols('ashare', { search: 'sh6', limit: 3 }), '/ashare/symbols?search=sh6&limit=3'],
    [() => client.klines('ashare', 'sh600001', { adj: 'qfq', limit: 3 }), '/ashare/klines/sh600001?adj=qfq&limit=3'],
    [() => client.klines('ashare', '600001.SH', { period: 'month' }), '/ashare/klines/sh600001?period=month'],
    [
      () => client.klinesBatch('ashare', ['600001.SH', 'sz000002', 'nope'], { fields: ['close', 'volume'], limit: 2 }),
      '/ashare/klines?symbols=600001.SH,sz000002,nope&fields=close,volume&limit=2',
    ],
    [() => client.crossSection('ashare', '20250314', { limit: 3 }), '/ashare/klines?date=20250314&limit=3'],
    [() => client.detail('hkstock', '0700.HK'), '/hkstock/detail/hk00700'],
    [
      () => client.detailBatch('ashare', ['sh600001', 'sz000002'], { fields: ['name', 'close'] }),
      '/ashare/detail?symbols=sh600001,sz000002&fields=name,close',
    ],
    [
      () =>
        client.screen('ashare', {
          bounds: { pe_ratio: { min: 0, max: 100 }, close: { min: 1 } },
          sort: 'pe_ratio',
          order: 'asc',
        }),
      '/ashare/screen?min_pe_ratio=0&max_pe_ratio=100&min_close=1&sort=pe_ratio&order=asc',
    ],
    [() => client.calendar('ashare', { start: '2025-03-01', limit: 5 }), '/ashare/calendar?start=2025-03-01&limit=5'],
    [() => client.actions('ashare', 'sh600001'), '/ashare/actions/sh600001'],
    [() => client.macro({ indicator: 'gdp' }), '/macro?indicator=gdp'],
    [() => client.macroIndicators(), '/macro/indicators'],
  ];
  for (const [call, path] of cases) assert.deepEqual(await call(), await plain(path), path);
  const quota = await client.quota();
  assert.equal(quota.plan, 'pro');
});

test('Link paging gathers every row: a screen and a K-line window two rows a page equal one large page', async () => {
  const rows = await mdq.collect(client.screenRows('ashare', { bounds: { close: { min: 0 } }, limit: 2 }));
  const whole = (await plain('/ashare/screen?min_close=0&limit=500')) as { data: unknown[]; total: number };
  assert.equal(rows.length, whole.total);
  assert.deepEqual(rows, whole.data);
  const klines = await mdq.collect(client.klinesRows('ashare', 'sh600001', { start: '2024-01-01', limit: 2 }));
  assert.deepEqual(
    klines,
    ((await plain('/ashare/klines/sh600001?start=2024-01-01&limit=500')) as { data: unknown[] }).data,
  );
});

test('a problem is thrown as MdqError with its status, code, parameter and suggestions', async () => {
  await assert.rejects(client.klines('ashare', 'sh60000'), (thrown: unknown) => {
    assert.ok(thrown instanceof mdq.MdqError);
    const e = thrown as AnyClient;
    assert.deepEqual([e.status, e.code, e.param], [404, 'unknown_symbol', 'symbol']);
    assert.ok(e.suggestions.length > 0);
    assert.match(e.instance, /\S/);
    return true;
  });
  await assert.rejects(client.screen('ashare', { bounds: { pe_ratio: { min: 5, max: 1 } } }), (e: AnyClient) => {
    assert.deepEqual([e.status, e.code], [400, 'invalid_parameter']);
    return true;
  });
  assert.throws(
    () => client.klinesBatch('ashare', []),
    /at least one symbol/,
    'an empty batch is not sent as a cross-section',
  );
  const stranger = new mdq.Client({ baseUrl: `http://127.0.0.1:${server.port}`, key: 'mdq_wrong' });
  await assert.rejects(stranger.markets(), (e: AnyClient) => e.status === 401 && e.code === 'unauthorized');
});

test('msgpack answers decode to the JSON value; Arrow answers to a table of the same rows', async () => {
  const packed = new mdq.Client({
    baseUrl: `http://127.0.0.1:${server.port}`,
    key: server.keys.pro,
    format: 'msgpack',
  });
  assert.deepEqual(
    await packed.klines('ashare', 'sh600001', { limit: 5 }),
    await plain('/ashare/klines/sh600001?limit=5'),
  );
  assert.deepEqual(await packed.screen('ashare'), await plain('/ashare/screen'));
  const table = await client.arrow('/ashare/klines/sh600001', { limit: 5 });
  const json = (await plain('/ashare/klines/sh600001?limit=5')) as { data: { close: number }[] };
  assert.equal(table.numRows, 5);
  assert.deepEqual(
    Array.from(table.getChild('close').toArray()),
    json.data.map((r) => r.close),
  );
  assert.equal(table.schema.metadata.get('symbol'), 'sh600001');
});

test('the export streams what a plain GET of it sends', async () => {
  const stream = await client.export('hkstock', { format: 'ndjson', fields: ['c'] });
  let text = '';
  for await (const chunk of stream) text += Buffer.from(chunk).toString('utf8');
  const direct = await fetch(`http://127.0.0.1:${server.port}/api/v1/hkstock/export?format=ndjson&fields=c`, {
    headers: { 'x-api-key': server.keys.pro },
  });
  assert.equal(text, await direct.text());
  assert.ok(text.split('\n').length > 2);
});

test('the example (the whole screen paged into an array) runs against the server', async () => {
  // Not spawnSync: the server answers from this process's event loop.
  const { stdout } = await run(process.execPath, [fileURLToPath(new URL('examples/screen-all.js', CLIENT))], {
    env: { ...process.env, MDQ_URL: `http://127.0.0.1:${server.port}`, MDQ_KEY: server.keys.pro },
  });
  const out = JSON.parse(stdout) as { count: number; first: { symbol: string } };
  assert.ok(out.count > 2, 'more rows than one page of 2');
  assert.match(out.first.symbol, /^s[hz]\d{6}$/);
});
