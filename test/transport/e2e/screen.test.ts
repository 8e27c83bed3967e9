// GET /{market}/screen: bounds, null handling, sort order and ties, paging and row columns, against the fixture CSV.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, ok, tickingClock } from '../../helpers/e2e.js';
import { type ScreenQuery, screenAnswer, SNAPSHOT_COLUMNS } from '../../helpers/fixture-model.js';

let server: TestServer;

async function check(market: string, query: string, q: ScreenQuery, message: string, key?: string): Promise<any> {
  const res = await server.get(`/api/v1/${market}/screen${query}`, key === undefined ? {} : { key });
  const body = ok(res, message);
  assertJsonExact(body, screenAnswer(market, q), message);
  return body;
}

// One case suite, two implementations: the screen inline and on the worker pool (habit 4).
for (const pool of [false, true]) {
  describe(pool ? 'screen on the worker pool' : 'screen inline', () => {
    before(async () => (server = await startTestServer({ now: tickingClock(), pool })));
    after(() => server.close());

    test('defaults: every snapshot, sorted by change_percent descending, nulls last, limit 50', async () => {
      const body = await check('ashare', '', { limit: 50 }, 'default screen');
      assert.equal(body.data.at(-1).change_percent, null, 'a null change_percent sorts last');
    });

    test('order=asc still puts nulls last', async () => {
      const body = await check('ashare', '?order=asc', { limit: 50, order: 'asc' }, 'ascending');
      assert.equal(body.data.at(-1).change_percent, null, 'nulls last in ascending order too');
    });

    test('ties break by symbol ascending in descending order', async () => {
      const body = await check('ashare', '?sort=dividend_ttm', { limit: 50, sort: 'dividend_ttm' }, 'ties desc');
      const tied = body.data.filter((r: any) => r.dividend_ttm === 0.2).map((r: any) => r.symbol);
      assert.deepEqual(tied, ['sh600001', 'sh600007'], 'sh600001 and sh600007 share 0.2 and come by symbol');
    });

    test('ties break by symbol ascending in ascending order', async () => {
      const body = await check(
        'ashare',
        '?sort=dividend_ttm&order=asc',
        { limit: 50, sort: 'dividend_ttm', order: 'asc' },
        'ties asc',
      );
      const tied = body.data.filter((r: any) => r.dividend_ttm === 0.2).map((r: any) => r.symbol);
      assert.deepEqual(tied, ['sh600001', 'sh600007'], 'not reversed by asc');
    });

    test('bounds are inclusive at both ends and the bounded column joins the row', async () => {
      const q: ScreenQuery = { limit: 50, bounds: { pe_ratio: { min: 12.5, max: 18.2346 } } };
      const body = await check('ashare', '?min_pe_ratio=12.5&max_pe_ratio=18.2346', q, 'inclusive bounds');
      assert.deepEqual(
        body.data.map((r: any) => r.symbol).sort(),
        ['sh600001', 'sh600006', 'sh600008'],
        '12.5 and 18.2346 themselves match',
      );
    });

    test('a row whose bounded column is null is excluded', async () => {
      const body = await check(
        'ashare',
        '?min_turnover_rate=0',
        { limit: 50, bounds: { turnover_rate: { min: 0 } } },
        'nulls excluded',
      );
      assert.ok(
        body.data.every((r: any) => r.turnover_rate !== null),
        'no null turnover_rate',
      );
    });

    test('negative and exponent bounds, on two columns at once', async () => {
      const q: ScreenQuery = { limit: 50, bounds: { pe_ratio: { min: -3 }, pb_ratio: { max: 13 } } };
      await check('ashare', '?min_pe_ratio=-3&max_pb_ratio=1.3e1', q, 'two bounds');
    });

    test('a sort column outside the default columns joins the row', async () => {
      await check(
        'ashare',
        '?sort=volume_ratio&order=asc',
        { limit: 50, sort: 'volume_ratio', order: 'asc' },
        'volume_ratio added',
      );
    });

    test('a bounded derived column joins the row', async () => {
      await check('ashare', '?min_ma5=0', { limit: 50, bounds: { ma5: { min: 0 } } }, 'ma5 added');
    });

    test('fields narrows the row to symbol, name, date, the named columns and the sort column', async () => {
      await check('ashare', '?fields=pe_ratio,ma20', { limit: 50, fields: ['pe_ratio', 'ma20'] }, 'narrowed');
    });

    test('limit and offset page the sorted matches; total counts every match', async () => {
      await check('ashare', '?limit=3&offset=2&sort=close', { limit: 3, offset: 2, sort: 'close' }, 'page 2..4');
    });

    test('a free key’s limit is clamped to 100', async () => {
      await check('ashare', '?limit=101', { limit: 100 }, 'free: 100', server.keys.free);
    });

    test('a pro key’s limit is clamped to 500', async () => {
      await check('ashare', '?limit=5000', { limit: 500 }, 'pro: 500');
    });

    test('hkstock: wb_ratio applies there and sorts with nulls last', async () => {
      await check(
        'hkstock',
        '?sort=wb_ratio&order=asc',
        { limit: 50, sort: 'wb_ratio', order: 'asc' },
        'hkstock wb_ratio',
      );
    });

    test('usstock: eps_ttm bounds', async () => {
      await check('usstock', '?max_eps_ttm=10', { limit: 50, bounds: { eps_ttm: { max: 10 } } }, 'usstock eps_ttm');
    });

    test('a market without data answers total 0 and no rows', async () => {
      await check('crypto', '', { limit: 50 }, 'empty crypto');
    });

    test('fields=* gives every snapshot column', async () => {
      await check(
        'ashare',
        '?fields=*&sort=pe_ratio&order=asc',
        { limit: 50, fields: [...SNAPSHOT_COLUMNS], sort: 'pe_ratio', order: 'asc' },
        'all columns',
      );
    });
  });
}
