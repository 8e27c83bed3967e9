// GET /{market}/klines: several symbols' windows, `date` versus ranges, `missing`, request order, against the fixture CSV.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, ok, startAnswerServer } from '../../helpers/e2e.js';
import {
  KLINE_FIELDS,
  type KlineField,
  type KlineQuery,
  klineFieldNames,
  klineWindow,
} from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const DEFAULT_FIELDS: KlineField[] = ['close', 'volume'];

/** The whole batch answer: `symbols` are canonical codes in request order; `missing` as requested. */
function expected(
  market: string,
  symbols: string[],
  q: Partial<KlineQuery> & { limit: number },
  missing: string[] = [],
): Record<string, unknown> {
  const fields = q.fields ?? DEFAULT_FIELDS;
  const data: Record<string, unknown[]> = {};
  let count = 0;
  for (const s of symbols) {
    data[s] = klineWindow(market, s, { ...q, fields }).rows;
    count += data[s].length;
  }
  const out: Record<string, unknown> = {
    market,
    count,
    limit: q.limit,
    offset: q.offset ?? 0,
    fields: klineFieldNames(fields),
    data,
  };
  if (missing.length > 0) out.missing = missing;
  return out;
}

async function check(path: string, exp: Record<string, unknown>, message: string, key?: string): Promise<void> {
  const res = await server.get(`/api/v1${path}`, key === undefined ? {} : { key });
  assertJsonExact(ok(res, message), exp, message);
}

test('default: close and volume of the latest 100 rows per symbol, keys in request order, count = all rows', async () => {
  await check(
    '/ashare/klines?symbols=sz000004,sh600001,sz000003',
    expected('ashare', ['sz000004', 'sh600001', 'sz000003'], { limit: 100 }),
    'three symbols',
  );
});

test('keys are canonical case whatever case was asked', async () => {
  await check(
    '/ashare/klines?symbols=SZ000004,Sh600001&limit=2',
    expected('ashare', ['sz000004', 'sh600001'], { limit: 2 }),
    'SZ000004 → sz000004',
  );
  await check(
    '/usstock/klines?symbols=USMSFT,usaapl&limit=1',
    expected('usstock', ['usMSFT', 'usAAPL'], { limit: 1 }),
    'USMSFT → usMSFT',
  );
});

test('limit counts rows per symbol: limit=2 gives each symbol its two latest days', async () => {
  await check(
    '/ashare/klines?symbols=sh600001,sz000005,sz000002&limit=2',
    expected('ashare', ['sh600001', 'sz000005', 'sz000002'], { limit: 2 }),
    'two per symbol',
  );
});

test('without start, offset skips backward per symbol', async () => {
  await check(
    '/ashare/klines?symbols=sh600001,sz000004&limit=2&offset=3',
    expected('ashare', ['sh600001', 'sz000004'], { limit: 2, offset: 3 }),
    'offset 3 back',
  );
});

test('date=D gives each symbol its row of day D or an empty array', async () => {
  const q = { start: '2025-03-13', end: '2025-03-13', limit: 100 };
  await check(
    '/ashare/klines?symbols=sh600001,sz000002,sz000005&date=2025-03-13',
    expected('ashare', ['sh600001', 'sz000002', 'sz000005'], q),
    'sz000002 has no 2025-03-13 row',
  );
});

test('later batches of a day (rows kept from the first): other symbols and order, field sets, adjustments, offset, aliases', async () => {
  const day = { start: '2025-03-13', end: '2025-03-13', limit: 100 };
  const symbols = ['sz000005', 'sz000004', 'sh600001', 'sz000002'];
  const asked = 'sz000005,000004.SZ,sh600001,sz000002';
  await check(`/ashare/klines?symbols=${asked}&date=20250313`, expected('ashare', symbols, day), 'default fields');
  await check(
    `/ashare/klines?symbols=${asked}&date=2025-03-13&fields=*&adj=qfq`,
    expected('ashare', symbols, { ...day, fields: KLINE_FIELDS, adj: 'qfq' }),
    'every field, qfq',
  );
  await check(
    `/ashare/klines?symbols=${asked}&date=2025-03-13&fields=c&adj=hfq`,
    expected('ashare', symbols, { ...day, fields: ['close'], adj: 'hfq' }),
    'close, hfq',
  );
  await check(
    `/ashare/klines?symbols=${asked}&date=2025-03-13&offset=1`,
    expected('ashare', symbols, { ...day, offset: 1 }),
    'offset skips the day’s row',
  );
  await check(
    '/ashare/klines?symbols=nope,sh600001,NOPE,nope,600001.SH&date=2025-03-13',
    expected('ashare', ['sh600001'], day, ['nope', 'NOPE']),
    'a missing text listed once, as first given',
  );
  // one writer renders the days' rows and the chunks of rows: a chunk after a day's row starts clean
  const twoFields = { fields: ['open', 'high'] as KlineField[], adj: 'hfq' as const };
  await check(
    '/ashare/klines?symbols=sz000004,sh600001&date=2025-03-12&fields=o,h&adj=hfq',
    expected('ashare', ['sz000004', 'sh600001'], { start: '2025-03-12', end: '2025-03-12', limit: 100, ...twoFields }),
    'a day of two fields, hfq',
  );
  const single = ok(await server.get('/api/v1/ashare/klines/sz000005?fields=o,h&adj=hfq&limit=3'), 'one symbol');
  assert.deepEqual(
    single.data,
    klineWindow('ashare', 'sz000005', { limit: 3, ...twoFields }).rows,
    'three rows, alone',
  );
  await check(
    '/ashare/klines?symbols=sz000004,sh600001&fields=o,h&adj=hfq&limit=5',
    expected('ashare', ['sz000004', 'sh600001'], { limit: 5, ...twoFields }),
    'their latest five rows, from a chunk of rows rendered and kept',
  );
});

test('date on a day no symbol traded gives empty arrays and count 0', async () => {
  const q = { start: '2025-03-09', end: '2025-03-09', limit: 100 };
  await check(
    '/ashare/klines?symbols=sh600001,sz000003&date=2025-03-09',
    expected('ashare', ['sh600001', 'sz000003'], q),
    'a Sunday',
  );
});

test('start and end bound every symbol’s window; start anchors and offset skips forward', async () => {
  const q = { start: '2025-03-10', end: '2025-03-13', limit: 2, offset: 1 };
  await check(
    '/ashare/klines?symbols=sh600001,sz000004,sz000002&start=2025-03-10&end=2025-03-13&limit=2&offset=1',
    expected('ashare', ['sh600001', 'sz000004', 'sz000002'], q),
    'range',
  );
});

test('unknown symbols are listed in missing (as asked) and the rest is answered', async () => {
  await check(
    '/ashare/klines?symbols=nope,sh600001,usAAPL&limit=1',
    expected('ashare', ['sh600001'], { limit: 1 }, ['nope', 'usAAPL']),
    'usAAPL is not an ashare symbol',
  );
});

test('a symbol named twice (in any case) is answered once', async () => {
  await check(
    '/ashare/klines?symbols=sh600001,SH600001,sh600001&limit=1',
    expected('ashare', ['sh600001'], { limit: 1 }),
    'one key',
  );
});

test('fields=* and short codes select columns as in the single query', async () => {
  await check(
    '/ashare/klines?symbols=sz000003,sz000004&fields=*&limit=2',
    expected('ashare', ['sz000003', 'sz000004'], { limit: 2, fields: KLINE_FIELDS }),
    'fields=*',
  );
  await check(
    '/ashare/klines?symbols=sz000003&fields=a,o&limit=2',
    expected('ashare', ['sz000003'], { limit: 2, fields: ['open', 'amount'] }),
    'a,o',
  );
});

test('adj=qfq rescales each symbol by its own latest adj_factor', async () => {
  const q = { limit: 5, adj: 'qfq' as const, fields: KLINE_FIELDS };
  await check(
    '/ashare/klines?symbols=sz000003,sh600001,sz000004&adj=qfq&fields=*&limit=5',
    expected('ashare', ['sz000003', 'sh600001', 'sz000004'], q),
    'qfq',
  );
});

test('adj=hfq in a batch', async () => {
  const q = { limit: 8, adj: 'hfq' as const, fields: ['open', 'close', 'volume'] as KlineField[] };
  await check(
    '/usstock/klines?symbols=usAAPL,usMSFT&adj=hfq&fields=o,c,v&limit=8',
    expected('usstock', ['usAAPL', 'usMSFT'], q),
    'hfq',
  );
});

test('the free plan’s limit is clamped to 100 rows per call and five symbols pass', async () => {
  const symbols = ['sh600001', 'sz000003', 'sz000004', 'sz000005', 'sh600006'];
  await check(
    `/ashare/klines?symbols=${symbols.join(',')}&limit=500`,
    expected('ashare', symbols, { limit: 100 }),
    'free: limit 100',
    server.keys.free,
  );
});

test('the pro plan’s limit is clamped to 500', async () => {
  await check(
    '/ashare/klines?symbols=sh600001&limit=501',
    expected('ashare', ['sh600001'], { limit: 500 }),
    'pro: limit 500',
  );
});

test('list items are trimmed', async () => {
  await check(
    '/ashare/klines?symbols=%20sh600001%20,sz000002&limit=1',
    expected('ashare', ['sh600001', 'sz000002'], { limit: 1 }),
    'spaces around items',
  );
});

test('fields naming an Object.prototype member (__proto__, constructor, toString) is a 400 like any unknown column', async () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    for (const path of [
      `/api/v1/ashare/klines/sh600001?fields=${name}`,
      `/api/v1/ashare/klines?symbols=sh600001&fields=${name}`,
    ]) {
      const res = await server.get(path);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.body.code, 'invalid_parameter');
      assert.match(res.body.detail, new RegExp(`unknown column '${name}'`));
    }
  }
});
