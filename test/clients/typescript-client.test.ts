// The TypeScript client (clients/typescript, built by `npm run build` from the served OpenAPI
// document) against a real server, through its own types: every endpoint's method answers what a
// plain GET answers, lists and screen bounds go out the way the server reads them, every paged
// endpoint's iterator gathers every page, problems come back as MdqError with their wait, 429 and
// 503 are retried after Retry-After (and not when told not to), msgpack and Arrow decode, the export
// streams. Compiled after the client (test/clients/tsconfig.json), so it imports the client's types.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type * as Mdq from '../../clients/typescript/dist/index.js';

/** What this suite needs of the test server (test/helpers/api-server.ts; loaded at run time, as the rest of the project is compiled apart). */
interface Server {
  port: number;
  keys: { free: string; pro: string; internal: string };
  get(
    path: string,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; text: string; body: unknown; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}
interface Clock {
  ms: number;
  advance(ms: number): void;
}
const helpers = (await import(new URL('../helpers/e2e.js', import.meta.url).href)) as {
  startAnswerServer(): Promise<Server>;
  startLimitServer(t: { after(fn: () => unknown): void }): Promise<{ server: Server; clock: Clock }>;
};
const mdq = (await import(new URL('../../../clients/typescript/dist/index.js', import.meta.url).href)) as typeof Mdq;

let server: Server;
let client: Mdq.Client;
const base = (): string => `http://127.0.0.1:${server.port}`;

before(async () => {
  server = await helpers.startAnswerServer();
  client = new mdq.Client({ baseUrl: base(), key: server.keys.pro });
});
after(() => server.close());

/** What a plain GET of `path` answers (JSON), for the client's answer to be held to. */
async function plain<T = unknown>(path: string): Promise<T> {
  const res = await server.get(`/api/v1${path}`, { key: server.keys.pro });
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.body as T;
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
  assert.deepEqual([quota.plan, quota.export_quota], ['pro', 20_000_000]);
});

test("every paged endpoint's iterator gathers every page: two rows a page equal one large page", async () => {
  type Page = { data: unknown[]; total: number };
  const cases: [AsyncIterable<unknown>, string][] = [
    [client.screenRows('ashare', { bounds: { close: { min: 0 } }, limit: 2 }), '/ashare/screen?min_close=0&limit=500'],
    [
      client.klinesRows('ashare', 'sh600001', { start: '2024-01-01', limit: 2 }),
      '/ashare/klines/sh600001?start=2024-01-01&limit=500',
    ],
    [client.crossSectionRows('ashare', '2025-03-14', { limit: 2 }), '/ashare/klines?date=2025-03-14&limit=500'],
    [client.symbolsRows('ashare', { limit: 2 }), '/ashare/symbols?limit=100'],
    [client.calendarRows('ashare', { limit: 2 }), '/ashare/calendar?limit=500'],
    [client.macroRows({ limit: 2 }), '/macro?limit=500'],
  ];
  for (const [rows, path] of cases) {
    const whole = await plain<Page>(path);
    const got = await mdq.collect(rows);
    assert.ok(whole.total > 2, `${path}: more than one page of 2 (${whole.total})`);
    assert.equal(got.length, whole.total, path);
    assert.deepEqual(got, whole.data, path);
  }
});

test('a problem is thrown as MdqError with its status, code, parameter, detail and suggestions', async () => {
  await assert.rejects(client.klines('ashare', 'sh60000'), (thrown: unknown) => {
    assert.ok(thrown instanceof mdq.MdqError);
    assert.deepEqual(
      [thrown.status, thrown.code, thrown.param, thrown.retryAfter],
      [404, 'unknown_symbol', 'symbol', null],
    );
    assert.ok((thrown.suggestions ?? []).length > 0);
    assert.ok(thrown.detail.includes(thrown.suggestions![0]), 'the detail names the first suggestion');
    assert.match(thrown.instance ?? '', /\S/);
    return true;
  });
  await assert.rejects(client.screen('ashare', { bounds: { pe_ratio: { min: 5, max: 1 } } }), (e: Mdq.MdqError) => {
    assert.deepEqual([e.status, e.code, e.param], [400, 'invalid_parameter', 'min_pe_ratio']);
    return true;
  });
  assert.throws(
    () => client.klinesBatch('ashare', []),
    /at least one symbol/,
    'an empty batch is not sent as a cross-section',
  );
  const stranger = new mdq.Client({ baseUrl: base(), key: 'mdq_wrong' });
  await assert.rejects(stranger.markets(), (e: Mdq.MdqError) => e.status === 401 && e.code === 'unauthorized');
});

/** A fetch answering `answers` in turn (status and Retry-After), recording when each call came. */
function scripted(answers: [number, string | null][]): { fetch: typeof fetch; calls: number[] } {
  const calls: number[] = [];
  const answer = (async () => {
    const [status, after] = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(performance.now());
    const body =
      status === 200
        ? { count: 0, data: [] }
        : { type: 'about:blank', title: 'x', status, code: status === 429 ? 'rate_limited' : 'not_ready', detail: 'x' };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (after !== null) headers['retry-after'] = after;
    return new Response(JSON.stringify(body), { status, headers });
  }) as typeof fetch;
  return { fetch: answer, calls };
}

test('429 and 503 are retried after Retry-After, a bounded number of times; other problems, and a wait above maxRetryWait, are not', async () => {
  const once = scripted([
    [429, '1'],
    [200, null],
  ]);
  const c = new mdq.Client({ baseUrl: 'http://x', key: 'k', fetch: once.fetch });
  assert.deepEqual(await c.markets(), { count: 0, data: [] });
  assert.equal(once.calls.length, 2);
  assert.ok(once.calls[1] - once.calls[0] >= 1000, 'not sooner than Retry-After');

  const always = scripted([[503, '0']]);
  await assert.rejects(
    new mdq.Client({ baseUrl: 'http://x', key: 'k', fetch: always.fetch, retries: 2 }).markets(),
    (e: Mdq.MdqError) => e.status === 503 && e.retryAfter === 0,
  );
  assert.equal(always.calls.length, 3, 'the first try and two retries');

  const off = scripted([[429, '0']]);
  await assert.rejects(
    new mdq.Client({ baseUrl: 'http://x', key: 'k', fetch: off.fetch, retries: 0 }).markets(),
    (e: Mdq.MdqError) => e.code === 'rate_limited',
  );
  assert.equal(off.calls.length, 1, 'retries: 0 tries once');

  const long = scripted([[429, '3600']]);
  await assert.rejects(
    new mdq.Client({ baseUrl: 'http://x', key: 'k', fetch: long.fetch }).markets(),
    (e: Mdq.MdqError) => e.retryAfter === 3600,
  );
  assert.equal(long.calls.length, 1, 'a spent daily quota is not waited for');

  const bad = scripted([[400, null]]);
  await assert.rejects(new mdq.Client({ baseUrl: 'http://x', key: 'k', fetch: bad.fetch }).markets());
  assert.equal(bad.calls.length, 1, 'a 400 is not retried');
});

test("against the server: a free key's request past its bucket waits Retry-After and succeeds; told not to retry, it throws with retryAfter", async (t) => {
  const { server: s, clock } = await helpers.startLimitServer(t);
  for (let i = 0; i < 30; i++) assert.equal((await s.get('/api/v1/quota', { key: s.keys.free })).status, 200);
  const at = `http://127.0.0.1:${s.port}`;
  const strict = new mdq.Client({ baseUrl: at, key: s.keys.free, retries: 0 });
  await assert.rejects(strict.markets(), (e: Mdq.MdqError) => {
    assert.deepEqual([e.status, e.code, e.retryAfter], [429, 'rate_limited', 2]);
    return true;
  });
  // The server's clock moves only when told: each request after the first moves it the wait asked.
  let calls = 0;
  const patient = new mdq.Client({
    baseUrl: at,
    key: s.keys.free,
    fetch: (input, init) => {
      if (calls++ > 0) clock.advance(2000);
      return fetch(input, init);
    },
  });
  const markets = await patient.markets();
  assert.equal(calls, 2, 'one retry');
  assert.ok(markets.count > 0);
});

test('msgpack answers decode to the JSON value; Arrow answers to a table of the same rows', async () => {
  const packed = new mdq.Client({ baseUrl: base(), key: server.keys.pro, format: 'msgpack' });
  assert.deepEqual(
    await packed.klines('ashare', 'sh600001', { limit: 5 }),
    await plain('/ashare/klines/sh600001?limit=5'),
  );
  assert.deepEqual(await packed.screen('ashare'), await plain('/ashare/screen'));
  const table = await client.arrow('/ashare/klines/sh600001', { limit: 5 });
  const json = await plain<{ data: { close: number }[] }>('/ashare/klines/sh600001?limit=5');
  assert.equal(table.numRows, 5);
  assert.deepEqual(
    Array.from(table.getChild('close')!.toArray() as Float64Array),
    json.data.map((r) => r.close),
  );
  assert.equal(table.schema.metadata.get('symbol'), 'sh600001');
});

test('the export streams what a plain GET of it sends', async () => {
  const stream = await client.export('hkstock', { format: 'ndjson', fields: ['c'] });
  let text = '';
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString('utf8');
  const direct = await fetch(`${base()}/api/v1/hkstock/export?format=ndjson&fields=c`, {
    headers: { 'x-api-key': server.keys.pro },
  });
  assert.equal(text, await direct.text());
  assert.ok(text.split('\n').length > 2);
});
