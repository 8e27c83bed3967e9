// GET /{market}/detail/{symbol} and GET /{market}/detail: every snapshot column, against the detail columns' rules computed here from the CSV.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, ok, startAnswerServer } from '../../helpers/e2e.js';
import { FIX, FIXTURE_MARKETS, SNAPSHOT_COLUMNS, snapshotRow } from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

async function get(path: string, message: string, key?: string): Promise<any> {
  return ok(await server.get(`/api/v1${path}`, key === undefined ? {} : { key }), message);
}

for (const market of FIXTURE_MARKETS) {
  test(`${market}: every symbol's detail has every column in spec order, each value as computed here from the CSV`, async () => {
    for (const symbol of FIX[market].symbols) {
      const body = await get(`/${market}/detail/${symbol}`, `${market}/${symbol}`);
      const exp = { market, symbol, count: 1, data: snapshotRow(market, symbol, SNAPSHOT_COLUMNS) };
      assertJsonExact(body, exp, `${market}/${symbol}: whole detail answer`);
    }
  });
}

test('fields narrows the snapshot to symbol, date and the named columns, in table order', async () => {
  const body = await get('/ashare/detail/sh600001?fields=pe_ratio,close,ma5', 'narrowed');
  assertJsonExact(
    body,
    {
      market: 'ashare',
      symbol: 'sh600001',
      count: 1,
      data: snapshotRow('ashare', 'sh600001', ['close', 'pe_ratio', 'ma5']),
    },
    'symbol, date, close, pe_ratio, ma5',
  );
});

test('fields=* is every column', async () => {
  const body = await get('/hkstock/detail/hk09988?fields=*', 'fields=*');
  assertJsonExact(
    body,
    { market: 'hkstock', symbol: 'hk09988', count: 1, data: snapshotRow('hkstock', 'hk09988', SNAPSHOT_COLUMNS) },
    'all columns',
  );
});

test('fields naming only symbol and date answers just those', async () => {
  const body = await get('/ashare/detail/sh600001?fields=symbol,date', 'identity only');
  assertJsonExact(
    body,
    { market: 'ashare', symbol: 'sh600001', count: 1, data: { symbol: 'sh600001', date: '2025-03-14' } },
    'two keys',
  );
});

test('a column that does not apply to the market is null even when fundamentals.csv supplies it', async () => {
  const body = await get('/ashare/detail/sh600001?fields=wb_ratio,eps_ttm,inner_volume', 'market-only columns');
  assert.deepEqual(
    body.data,
    { symbol: 'sh600001', date: '2025-03-14', inner_volume: 21000, wb_ratio: null, eps_ttm: null },
    'wb_ratio 7.5 and eps_ttm 0.35 of ashare fundamentals are not answered',
  );
});

test('the symbol is matched case-insensitively and answered in canonical case', async () => {
  const body = await get('/usstock/detail/USaapl?fields=close', 'USaapl');
  assertJsonExact(
    body,
    { market: 'usstock', symbol: 'usAAPL', count: 1, data: snapshotRow('usstock', 'usAAPL', ['close']) },
    'usAAPL',
  );
});

test('a listed symbol without K-lines has a null date and null quote columns, but its fundamentals', async () => {
  const body = await get('/ashare/detail/sh600008?fields=close,pe_ratio,total_market_cap', 'sh600008');
  assert.deepEqual(
    body.data,
    { symbol: 'sh600008', date: null, close: null, pe_ratio: 15.5, total_market_cap: null },
    'nulls, not 0 or ""',
  );
});

test('batch: all columns by default, keys in request order and canonical case, count = symbols answered', async () => {
  const body = await get('/ashare/detail?symbols=SZ000004,sh600001,sh600008', 'batch');
  const data = Object.fromEntries(
    ['sz000004', 'sh600001', 'sh600008'].map((s) => [s, snapshotRow('ashare', s, SNAPSHOT_COLUMNS)]),
  );
  assertJsonExact(body, { market: 'ashare', count: 3, data }, 'three snapshots');
});

test('batch: fields narrows every snapshot', async () => {
  const body = await get('/hkstock/detail?symbols=hk09988,hk00700&fields=wb_ratio,close,eps_ttm', 'batch fields');
  const data = Object.fromEntries(
    ['hk09988', 'hk00700'].map((s) => [s, snapshotRow('hkstock', s, ['close', 'wb_ratio', 'eps_ttm'])]),
  );
  assertJsonExact(body, { market: 'hkstock', count: 2, data }, 'narrowed');
});

test('batch: unknown symbols are listed in missing and the rest answered', async () => {
  const body = await get('/usstock/detail?symbols=nope,usMSFT,sh600001&fields=close', 'missing');
  assertJsonExact(
    body,
    {
      market: 'usstock',
      count: 1,
      data: { usMSFT: snapshotRow('usstock', 'usMSFT', ['close']) },
      missing: ['nope', 'sh600001'],
    },
    'missing in request order',
  );
});

test('batch: the same symbol twice is answered once', async () => {
  const body = await get('/ashare/detail?symbols=sh600009,SH600009&fields=pb_ratio', 'duplicates');
  assertJsonExact(
    body,
    { market: 'ashare', count: 1, data: { sh600009: snapshotRow('ashare', 'sh600009', ['pb_ratio']) } },
    'one entry',
  );
});

test('batch: a free key may ask for five symbols', async () => {
  const symbols = ['sh600001', 'sh600006', 'sh600007', 'sh600008', 'sh600009'];
  const body = await get(`/ashare/detail?symbols=${symbols.join(',')}&fields=pe_ratio`, 'five', server.keys.free);
  assertJsonExact(
    body,
    {
      market: 'ashare',
      count: 5,
      data: Object.fromEntries(symbols.map((s) => [s, snapshotRow('ashare', s, ['pe_ratio'])])),
    },
    'five snapshots',
  );
});
