// GET /{market}/symbols: listing, search ranking (exact, prefix, substring, name), ties, paging and the limit cap.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, ok, startAnswerServer, tickingClock } from '../../helpers/e2e.js';
import { symbolMatches } from '../../helpers/fixture-model.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../../helpers/snapshot-folder.js';

/** The whole answer of a symbols query, from the ranked matches computed here. */
function expected(market: string, search: string | null, limit: number, offset = 0): Record<string, unknown> {
  const all = symbolMatches(market, search);
  const data = all.slice(offset, offset + limit);
  return { market, total: all.length, count: data.length, limit, offset, data };
}

describe('over the fixture', () => {
  let server: TestServer;
  before(async () => (server = await startAnswerServer()));
  after(() => server.close());

  const check = async (path: string, exp: Record<string, unknown>, message: string): Promise<void> => {
    assertJsonExact(ok(await server.get(`/api/v1${path}`), message), exp, message);
  };

  test('no search: every symbol by symbol ascending, names null where symbols.csv has none', async () => {
    await check('/ashare/symbols', expected('ashare', null, 50), 'all nine ashare symbols; sz000004 has no name');
  });

  test('search matches a code substring before a name substring, whatever the symbol order', async () => {
    await check(
      '/usstock/symbols?search=m',
      expected('usstock', 'm', 50),
      'usMSFT (code) before usAAPL (name “Sample…”)',
    );
  });

  test('search is case-insensitive on codes', async () => {
    await check('/usstock/symbols?search=MSFT', expected('usstock', 'MSFT', 50), 'MSFT finds usMSFT');
    await check('/usstock/symbols?search=USAAPL', expected('usstock', 'USAAPL', 50), 'an exact code in another case');
  });

  test('search matches name substrings (non-ASCII too), ties by symbol', async () => {
    await check(
      `/ashare/symbols?search=${encodeURIComponent('样本')}`,
      expected('ashare', '样本', 50),
      'five names contain 样本',
    );
  });

  test('search with no match answers total 0 and no rows', async () => {
    await check('/hkstock/symbols?search=zzz', expected('hkstock', 'zzz', 50), 'nothing');
  });

  test('limit and offset page the list; total counts every match', async () => {
    await check('/ashare/symbols?limit=2&offset=3', expected('ashare', null, 2, 3), 'rows 3 and 4');
  });

  test('Link rel="next" moves offset on even when the request spelled it percent-encoded (%6Fffset)', async () => {
    const res = await server.get('/api/v1/ashare/symbols?%6Fffset=1&limit=2');
    assertJsonExact(ok(res, 'offset 1'), expected('ashare', null, 2, 1), 'rows 1 and 2');
    assert.equal(
      res.headers.link,
      '</api/v1/ashare/symbols?limit=2&offset=3>; rel="next"',
      'the encoded offset is replaced, not kept beside the new one',
    );
    await check('/ashare/symbols?limit=2&offset=3', expected('ashare', null, 2, 3), 'the next page answers');
  });

  test('limit above 100 is clamped to 100 and shown', async () => {
    await check('/ashare/symbols?limit=101', expected('ashare', null, 100), 'limit 101 → 100');
  });

  test('a market without data lists nothing', async () => {
    await check('/etfs/symbols', expected('etfs', null, 50), 'etfs is empty');
  });
});

describe('ranking over a crypto snapshot written for it', () => {
  let server: TestServer;
  let dir: { path: string; cleanup: () => Promise<void> };
  const CODES = ['AETHX', 'BTCUSDT', 'ETH', 'ETHUSDT', 'ETHBTC', 'WETH', 'SOLUSDT'];
  before(async () => {
    dir = await tempDir('mdq-symbols-');
    await writeSnapshotFolder(dir.path, {
      'manifest.json': JSON.stringify({ id: 'symbols-ranking' }),
      'crypto/symbols.csv': csv(
        'symbol,name',
        'AETHX,Aeth Token',
        'BTCUSDT,Bitcoin on Eth bridge',
        'ETH,Ether',
        'ETHUSDT,Ether Tether',
        'ETHBTC,Ether Bitcoin',
        'WETH,Wrapped Ether',
        'SOLUSDT,Solana',
      ),
      'crypto/klines.csv': csv(KLINE_HEADER, ...CODES.map((c) => `${c},2025-03-14,1,2,0.5,1.5,10,15,1`)),
    });
    server = await startTestServer({ snapshot: dir.path, now: tickingClock() });
  });
  after(async () => {
    await server.close();
    await dir.cleanup();
  });

  const data = (...codes: string[]) =>
    codes.map((symbol) => ({
      symbol,
      name: {
        AETHX: 'Aeth Token',
        BTCUSDT: 'Bitcoin on Eth bridge',
        ETH: 'Ether',
        ETHUSDT: 'Ether Tether',
        ETHBTC: 'Ether Bitcoin',
        WETH: 'Wrapped Ether',
        SOLUSDT: 'Solana',
      }[symbol],
    }));

  test('exact code, then code prefix, then code substring, then name substring; ties by symbol', async () => {
    const body = ok(await server.get('/api/v1/crypto/symbols?search=eth'), 'search=eth');
    const exp = {
      market: 'crypto',
      total: 6,
      count: 6,
      limit: 50,
      offset: 0,
      data: data('ETH', 'ETHBTC', 'ETHUSDT', 'AETHX', 'WETH', 'BTCUSDT'),
    };
    assertJsonExact(body, exp, 'ETH; ETHBTC, ETHUSDT; AETHX, WETH; BTCUSDT (name)');
  });

  test('paging applies after ranking', async () => {
    const body = ok(await server.get('/api/v1/crypto/symbols?search=ETH&limit=2&offset=2'), 'paged ranking');
    assertJsonExact(
      body,
      { market: 'crypto', total: 6, count: 2, limit: 2, offset: 2, data: data('ETHUSDT', 'AETHX') },
      'ranks 3 and 4',
    );
  });

  test('a lower-case crypto symbol finds its canonical upper-case code', async () => {
    const body = ok(await server.get('/api/v1/crypto/klines/btcusdt?fields=c'), 'btcusdt');
    const exp = {
      market: 'crypto',
      symbol: 'BTCUSDT',
      count: 1,
      total: 1,
      offset: 0,
      limit: 100,
      fields: ['symbol', 'date', 'close', 'adj_factor'],
      data: [{ symbol: 'BTCUSDT', date: '2025-03-14', close: 1.5, adj_factor: 1 }],
    };
    assertJsonExact(body, exp, 'btcusdt → BTCUSDT');
  });
});
