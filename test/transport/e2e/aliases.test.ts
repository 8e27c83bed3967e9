// The forms users type for a symbol: exchange suffixes, bare codes, any case, on every route that takes one; unknown symbols suggest.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiResponse, TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, assertProblem, ok, startAnswerServer } from '../../helpers/e2e.js';
import {
  FIX,
  KLINE_FIELDS,
  type KlineField,
  klineFieldNames,
  klineWindow,
  snapshotRow,
  symbolMatches,
} from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const api = (path: string): Promise<ApiResponse> => server.get(`/api/v1${path}`);

/**
 * Every alias form for the three markets the fixture fills: [market, text as typed,
 * canonical code]. Codes are the fixture's own (ashare sh600001, sh600006, sh600008 — listed
 * without K-lines —, sz000002, sz000003, sz000004 — K-lines without a symbols.csv line —,
 * sz000005; hkstock hk00700, hk09988; usstock usAAPL, usMSFT).
 *
 * Bare codes: no number is shared between the fixture's sh and sz codes (600001, 600006–600009
 * are Shanghai only, 000002–000005 Shenzhen only), nor between its hkstock numbers (700, 9988),
 * so every bare code here is the unambiguous case. An ambiguous bare code (a market where both
 * sh600001 and sz600001 exist) cannot be asked of this fixture and is not tested here.
 */
const FORMS: readonly [market: string, given: string, canonical: string][] = [
  ['ashare', '600001.SH', 'sh600001'],
  ['ashare', '600001.sh', 'sh600001'],
  ['ashare', '600001.SS', 'sh600001'],
  ['ashare', '600001.sS', 'sh600001'],
  ['ashare', '600006.ss', 'sh600006'],
  ['ashare', '600008.Sh', 'sh600008'],
  ['ashare', '000002.SZ', 'sz000002'],
  ['ashare', '000003.sz', 'sz000003'],
  ['ashare', '000004.Sz', 'sz000004'],
  ['ashare', '600001', 'sh600001'],
  ['ashare', '000005', 'sz000005'],
  ['ashare', 'SH600001', 'sh600001'],
  ['ashare', 'sZ000003', 'sz000003'],
  ['hkstock', '0700.HK', 'hk00700'],
  ['hkstock', '00700.HK', 'hk00700'],
  ['hkstock', '700.hk', 'hk00700'],
  ['hkstock', '000700.Hk', 'hk00700'],
  ['hkstock', '9988.HK', 'hk09988'],
  ['hkstock', '09988.hK', 'hk09988'],
  ['hkstock', '700', 'hk00700'],
  ['hkstock', '0700', 'hk00700'],
  ['hkstock', '00700', 'hk00700'],
  ['hkstock', '9988', 'hk09988'],
  ['hkstock', 'HK00700', 'hk00700'],
  ['usstock', 'AAPL', 'usAAPL'],
  ['usstock', 'aapl', 'usAAPL'],
  ['usstock', 'AAPL.US', 'usAAPL'],
  ['usstock', 'aapl.us', 'usAAPL'],
  ['usstock', 'Msft.Us', 'usMSFT'],
  ['usstock', 'MsFt', 'usMSFT'],
  ['usstock', 'USMSFT', 'usMSFT'],
];

/** Texts that look like aliases but name no symbol of the market asked. */
const NOT_SYMBOLS: readonly [market: string, given: string, why: string][] = [
  ['ashare', '600001.SZ', 'sz600001 does not exist: the suffix picks the exchange'],
  ['ashare', '000002.SH', 'sh000002 does not exist'],
  ['ashare', '000002.SS', 'sh000002 does not exist'],
  ['ashare', '600002', 'no symbol of ashare has the number 600002'],
  ['ashare', '0700.HK', 'an hkstock form asked of ashare'],
  ['ashare', 'AAPL', 'a usstock form asked of ashare'],
  ['hkstock', '600001.SH', 'an ashare form asked of hkstock'],
  ['hkstock', '701.HK', 'no hkstock number 701'],
  ['usstock', 'AAPL.HK', 'a usstock code with a Hong Kong suffix'],
  ['usstock', '600001', 'an ashare bare code asked of usstock'],
];

const LIMIT = 3;

/** The single K-line answer of `symbol` (canonical), its latest LIMIT rows, every field. */
function klineAnswer(market: string, symbol: string): Record<string, unknown> {
  const w = klineWindow(market, symbol, { limit: LIMIT, fields: KLINE_FIELDS });
  return {
    market,
    symbol,
    count: w.rows.length,
    total: w.total,
    offset: 0,
    limit: LIMIT,
    fields: klineFieldNames(KLINE_FIELDS),
    data: w.rows,
  };
}

const BATCH_FIELDS: KlineField[] = ['close', 'volume'];

/** The batch K-line answer: `symbols` canonical in answer order; `missing` as typed. */
function batchAnswer(market: string, symbols: string[], missing: string[] = []): Record<string, unknown> {
  const data: Record<string, unknown[]> = {};
  let count = 0;
  for (const s of symbols) {
    data[s] = klineWindow(market, s, { limit: LIMIT, fields: BATCH_FIELDS }).rows;
    count += data[s].length;
  }
  const out: Record<string, unknown> = {
    market,
    count,
    limit: LIMIT,
    offset: 0,
    fields: klineFieldNames(BATCH_FIELDS),
    data,
  };
  if (missing.length > 0) out.missing = missing;
  return out;
}

const DETAIL_COLUMNS = ['close', 'pe_ratio'];

/** The batch detail answer narrowed to DETAIL_COLUMNS. */
function detailBatchAnswer(market: string, symbols: string[], missing: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {
    market,
    count: symbols.length,
    data: Object.fromEntries(symbols.map((s) => [s, snapshotRow(market, s, DETAIL_COLUMNS)])),
  };
  if (missing.length > 0) out.missing = missing;
  return out;
}

const q = (text: string): string => encodeURIComponent(text);

/** Asserts a 404 unknown_symbol whose `suggestions` are `expected` (canonical codes) and whose detail names the first. */
function assertSuggests(res: ApiResponse, expected: string[], message: string): void {
  assertProblem(res, 404, 'unknown_symbol', undefined, message);
  assert.deepStrictEqual(res.body.suggestions, expected, `${message}: suggestions`);
  if (expected.length > 0)
    assert.ok(
      String(res.body.detail).includes(expected[0]),
      `${message}: detail names the first suggestion ${expected[0]} (detail: ${res.body.detail})`,
    );
}

/** The first three of the symbol search's ranking for `text`: what unknown_symbol suggests. */
const top3 = (market: string, text: string): string[] =>
  symbolMatches(market, text)
    .slice(0, 3)
    .map((m) => m.symbol);

// ---- Every form on every route ----

test('single K-lines: every alias form finds its symbol, answered under the canonical code', async () => {
  for (const [market, given, canonical] of FORMS) {
    const res = await api(`/${market}/klines/${q(given)}?limit=${LIMIT}`);
    assertJsonExact(ok(res, `${market} ${given}`), klineAnswer(market, canonical), `${market} ${given} → ${canonical}`);
  }
});

test('single detail: every alias form finds its symbol, answered under the canonical code', async () => {
  for (const [market, given, canonical] of FORMS) {
    const res = await api(`/${market}/detail/${q(given)}?fields=${DETAIL_COLUMNS.join(',')}`);
    assertJsonExact(
      ok(res, `${market} ${given}`),
      { market, symbol: canonical, count: 1, data: snapshotRow(market, canonical, DETAIL_COLUMNS) },
      `${market} detail ${given} → ${canonical}`,
    );
  }
});

test('batch K-lines: every alias form alone in symbols is answered under its canonical key', async () => {
  for (const [market, given, canonical] of FORMS) {
    const res = await api(`/${market}/klines?symbols=${q(given)}&limit=${LIMIT}`);
    assertJsonExact(ok(res, `${market} ${given}`), batchAnswer(market, [canonical]), `${market} batch ${given}`);
  }
});

test('batch detail: every alias form alone in symbols is answered under its canonical key', async () => {
  for (const [market, given, canonical] of FORMS) {
    const res = await api(`/${market}/detail?symbols=${q(given)}&fields=${DETAIL_COLUMNS.join(',')}`);
    assertJsonExact(ok(res, `${market} ${given}`), detailBatchAnswer(market, [canonical]), `${market} batch ${given}`);
  }
});

// ---- Batches mixing forms ----

test('a batch mixing forms keys data by canonical codes in request order', async () => {
  const ashare = ['600001.SH', 'sz000003', '000004.sz', '600006', 'SZ000002', '600008.ss'];
  const ashareKeys = ['sh600001', 'sz000003', 'sz000004', 'sh600006', 'sz000002', 'sh600008'];
  let res = await api(`/ashare/klines?symbols=${ashare.map(q).join(',')}&limit=${LIMIT}`);
  assertJsonExact(ok(res, 'ashare mixed'), batchAnswer('ashare', ashareKeys), 'ashare: six forms');
  res = await api(`/ashare/detail?symbols=${ashare.map(q).join(',')}&fields=${DETAIL_COLUMNS.join(',')}`);
  assertJsonExact(ok(res, 'ashare mixed detail'), detailBatchAnswer('ashare', ashareKeys), 'ashare detail');

  res = await api(`/hkstock/klines?symbols=9988,0700.HK&limit=${LIMIT}`);
  assertJsonExact(ok(res, 'hkstock mixed'), batchAnswer('hkstock', ['hk09988', 'hk00700']), 'hkstock: bare, suffix');
  res = await api(`/usstock/klines?symbols=msft.us,aapl&limit=${LIMIT}`);
  assertJsonExact(ok(res, 'usstock mixed'), batchAnswer('usstock', ['usMSFT', 'usAAPL']), 'usstock: suffix, bare');
});

test('the same symbol given in several forms is one entry, at its first place', async () => {
  let res = await api(`/ashare/klines?symbols=sz000003,600001.SH,000003.SZ,sh600001,600001.ss,600001&limit=${LIMIT}`);
  assertJsonExact(ok(res, 'dupes'), batchAnswer('ashare', ['sz000003', 'sh600001']), 'six texts, two symbols');
  res = await api(`/hkstock/detail?symbols=700,hk00700,00700.HK&fields=${DETAIL_COLUMNS.join(',')}`);
  assertJsonExact(ok(res, 'hk dupes'), detailBatchAnswer('hkstock', ['hk00700']), 'three texts, one symbol');
  res = await api(`/usstock/klines?symbols=AAPL.US,usAAPL,aapl&limit=${LIMIT}`);
  assertJsonExact(ok(res, 'us dupes'), batchAnswer('usstock', ['usAAPL']), 'three texts, one symbol');
});

test('missing lists the unknown texts exactly as given, in request order, beside canonical data keys', async () => {
  let res = await api(`/ashare/klines?symbols=600001.SZ,600001.sh,Foo.SH,000002.SS,000002.sz&limit=${LIMIT}`);
  assertJsonExact(
    ok(res, 'missing'),
    batchAnswer('ashare', ['sh600001', 'sz000002'], ['600001.SZ', 'Foo.SH', '000002.SS']),
    'missing as typed',
  );
  res = await api(`/hkstock/detail?symbols=701.HK,0700.hk&fields=${DETAIL_COLUMNS.join(',')}`);
  assertJsonExact(ok(res, 'hk missing'), detailBatchAnswer('hkstock', ['hk00700'], ['701.HK']), 'hk missing');
});

// ---- What does not resolve ----

test('alias-looking texts that name no symbol of the market are 404 unknown_symbol on every route', async () => {
  for (const [market, given, why] of NOT_SYMBOLS) {
    for (const path of [
      `/${market}/klines/${q(given)}`,
      `/${market}/detail/${q(given)}`,
      `/${market}/klines?symbols=${q(given)}`,
      `/${market}/detail?symbols=${q(given)}`,
    ])
      assertProblem(await api(path), 404, 'unknown_symbol', undefined, `${path}: ${why}`);
  }
});

// ---- Suggestions ----

test('unknown_symbol suggests the first three of the symbol search ranking for a near miss, and the detail names the first', async () => {
  const cases: [market: string, given: string, expected: string[]][] = [
    ['ashare', 'sh60000', ['sh600001', 'sh600006', 'sh600007']],
    ['ashare', 'SH60000', ['sh600001', 'sh600006', 'sh600007']],
    ['ashare', 'sz00000', ['sz000002', 'sz000003', 'sz000004']],
    ['hkstock', 'hk0070', ['hk00700']],
    ['usstock', 'usAAP', ['usAAPL']],
    ['hkstock', '样本', ['hk00700', 'hk09988']],
  ];
  for (const [market, given, expected] of cases) {
    // The hand-written lists are the search ranking: exact code, code prefix, code substring, name substring.
    assert.deepStrictEqual(top3(market, given), expected, `the fixture ranks ${given} so`);
    assertSuggests(await api(`/${market}/klines/${q(given)}`), expected, `klines ${market}/${given}`);
    assertSuggests(await api(`/${market}/detail/${q(given)}`), expected, `detail ${market}/${given}`);
    assertSuggests(await api(`/${market}/klines?symbols=${q(given)}`), expected, `batch ${market} ${given}`);
  }
});

test('a code with a typo in its last digits suggests what the search finds without them', async () => {
  // sh600002 and sz000009 are not in the fixture: searched again as sh60000 and sz00000, then sz0000.
  for (const [given, shortened] of [
    ['sh600002', 'sh60000'],
    ['sz000009', 'sz00000'],
    ['SH600002.x', 'SH60000'],
  ]) {
    const expected = top3('ashare', shortened);
    assert.ok(expected.length > 0, `the fixture has codes starting ${shortened}`);
    assert.deepStrictEqual(top3('ashare', given), [], `no code holds ${given}`);
    assertSuggests(await api(`/ashare/klines/${q(given)}`), expected, `klines ashare/${given}`);
  }
});

test('unknown_symbol with nothing near suggests an empty array', async () => {
  for (const [market, route, given] of [
    ['ashare', 'klines', 'sh999999'],
    ['ashare', 'detail', 'zz'],
    ['usstock', 'klines', 'usNOPE'],
    ['hkstock', 'detail', 'hk99999'],
  ]) {
    assert.deepStrictEqual(top3(market, given), [], `no code or name of ${market} contains ${given}`);
    assertSuggests(await api(`/${market}/${route}/${given}`), [], `${market}/${route}/${given}`);
  }
});

test('suggestions are always an array of at most three existing canonical codes of the market asked', async () => {
  const paths: [market: string, path: string][] = [
    ['ashare', '/ashare/klines?symbols=sh60000,sz00000'],
    ['ashare', '/ashare/detail?symbols=nope,sh6'],
    ['ashare', '/ashare/klines/600002.SH'],
    ['ashare', '/ashare/klines/6'],
    ['hkstock', '/hkstock/klines/701.HK'],
    ['usstock', '/usstock/detail/AAPL.HK'],
  ];
  for (const [market, path] of paths) {
    const res = await api(path);
    assertProblem(res, 404, 'unknown_symbol', undefined, path);
    const s = res.body.suggestions;
    assert.ok(Array.isArray(s), `${path}: suggestions is an array (${res.text})`);
    assert.ok(s.length <= 3, `${path}: at most three suggestions`);
    for (const code of s)
      assert.ok(FIX[market].symbols.includes(code), `${path}: ${code} is a canonical ${market} code`);
    if (s.length > 0) assert.ok(String(res.body.detail).includes(s[0]), `${path}: the detail names ${s[0]}`);
  }
});
