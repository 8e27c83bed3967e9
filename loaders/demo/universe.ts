// The demo's symbol universe per market: codes in each market's shape, names, exchange and type.

import { MARKETS, type Market } from '../../engine/markets.js';
import type { CalendarFamily } from './calendars.js';
import { chineseName, CRYPTO_ASSETS, CRYPTO_QUOTES, englishName, hongKongName, uniqueName } from './names.js';
import { Rng, STREAM, streamSeed } from './prng.js';

/** Identity of one demo symbol, as written to symbols.csv, plus what its price walk starts from. */
export interface SymbolInfo {
  readonly symbol: string;
  readonly name: string;
  readonly marketName: string;
  readonly marketType: string;
  readonly family: CalendarFamily;
  /** Price level to start near; absent: the market profile's range decides. */
  readonly refPrice?: number;
  /** Crypto: USD value of one unit of the quote asset (sizes volumes by turnover). */
  readonly quoteUsd?: number;
}

const INDICES: readonly (readonly [string, string, number])[] = [
  ['sh000001', '上证指数', 3100],
  ['sh000016', '上证50', 2400],
  ['sh000300', '沪深300', 3600],
  ['sh000905', '中证500', 6000],
  ['sh000852', '中证1000', 6500],
  ['sh000688', '科创50', 1000],
  ['sh000010', '上证180', 8500],
  ['sz399001', '深证成指', 10500],
  ['sz399006', '创业板指', 2100],
  ['sz399005', '中小100', 6800],
  ['sz399330', '深证100', 4500],
  ['sz399673', '创业板50', 2200],
  ['hkHSI', '恒生指数', 22000],
  ['hkHSCEI', '恒生中国企业指数', 8000],
  ['hkHSTECH', '恒生科技指数', 5000],
];

const ETFS: readonly (readonly [string, string])[] = [
  ['sh510050', '上证50ETF'],
  ['sh510300', '沪深300ETF'],
  ['sh510500', '中证500ETF'],
  ['sh588000', '科创50ETF'],
  ['sh512880', '证券ETF'],
  ['sh512480', '半导体ETF'],
  ['sh515030', '新能源车ETF'],
  ['sh518880', '黄金ETF'],
  ['sh512690', '酒ETF'],
  ['sh513100', '纳指ETF'],
  ['sh510880', '红利ETF'],
];

// Code ranges of the A-share boards: [prefix, first code, last code, weight].
const ASHARE_BOARDS: readonly (readonly [string, number, number, number])[] = [
  ['sh', 600000, 605999, 0.4],
  ['sh', 688000, 689999, 0.1],
  ['sz', 1, 3999, 0.3],
  ['sz', 300000, 301999, 0.2],
];

/**
 * The ashare codes every demo holds, whatever its scale: the ones the READMEs' and /docs' examples
 * name (sh600001 and 000002.SZ in the clients' examples, also the fixture's), so each runs as
 * printed against `npm start`'s data.
 */
const ASHARE_FIRST = ['sh600000', 'sh600001', 'sz000001', 'sz000002', 'sz300750', 'sh601318'];

/** Draws codes until `count` distinct ones exist, after the fixed `first` ones. */
function distinctCodes(rng: Rng, count: number, first: readonly string[], draw: (rng: Rng) => string): string[] {
  const seen = new Set(first);
  const out = [...first];
  while (out.length < count) {
    const code = draw(rng);
    if (!seen.has(code)) seen.add(code), out.push(code);
  }
  return out;
}

function ashareCode(rng: Rng): string {
  let u = rng.next();
  const board = ASHARE_BOARDS.find((b) => (u -= b[3]) < 0) ?? ASHARE_BOARDS[0];
  return board[0] + String(rng.int(board[1], board[2])).padStart(6, '0');
}

function usTicker(rng: Rng): string {
  const len = rng.pick([2, 3, 3, 4, 4, 4]);
  let t = '';
  for (let i = 0; i < len; i++) t += String.fromCharCode(65 + rng.int(0, 25));
  return `us${t}`;
}

/** The full universe of a market in a seed-fixed order; a scaled demo takes a prefix of it. */
export function universe(market: Market, count: number, seed: number): SymbolInfo[] {
  const rng = new Rng(streamSeed(seed, MARKETS.indexOf(market), 0, STREAM.universe));
  const names = new Set<string>();
  switch (market) {
    case 'ashare':
      return distinctCodes(rng, count, ASHARE_FIRST, ashareCode).map((symbol) => ({
        symbol,
        name: uniqueName(rng, names, chineseName),
        marketName: symbol.startsWith('sh') ? '上交所' : '深交所',
        marketType: 'stock',
        family: 'cn',
      }));
    case 'hkstock':
      return distinctCodes(
        rng,
        count,
        ['hk00700', 'hk00005', 'hk09988'],
        (r) => `hk${String(r.int(1, 9999)).padStart(5, '0')}`,
      ).map((symbol) => ({
        symbol,
        name: uniqueName(rng, names, hongKongName),
        marketName: 'HKEX',
        marketType: 'stock',
        family: 'hk',
      }));
    case 'usstock':
      return distinctCodes(rng, count, [], usTicker).map((symbol) => ({
        symbol,
        name: uniqueName(rng, names, englishName),
        marketName: rng.chance(0.55) ? 'NASDAQ' : 'NYSE',
        marketType: 'stock',
        family: 'us',
      }));
    case 'crypto':
      return cryptoPairs().slice(0, count);
    case 'indices':
      return INDICES.slice(0, count).map(([symbol, name, level]) => ({
        symbol,
        name,
        refPrice: level,
        marketType: 'index',
        marketName: symbol.startsWith('hk') ? 'HKEX' : symbol.startsWith('sh') ? '上交所' : '深交所',
        family: symbol.startsWith('hk') ? 'hk' : 'cn',
      }));
    case 'etfs':
      return ETFS.slice(0, count).map(([symbol, name]) => ({
        symbol,
        name,
        refPrice: rng.range(2, 6),
        marketName: '上交所',
        marketType: 'etf',
        family: 'cn',
      }));
  }
}

/** Every USDT pair, then BTC-quoted pairs whose price stays above 1e-6 BTC (no more than 10 decimals). */
function cryptoPairs(): SymbolInfo[] {
  const out: SymbolInfo[] = [];
  for (const [qt, qName, qUsd] of CRYPTO_QUOTES) {
    for (const [base, bName, usd] of CRYPTO_ASSETS) {
      if (base === qt || (usd / qUsd < 1e-6 && qt !== 'USDT')) continue;
      out.push({
        symbol: base + qt,
        name: `${bName} / ${qName}`,
        marketName: 'Binance',
        marketType: 'crypto',
        family: 'crypto',
        refPrice: usd / qUsd,
        quoteUsd: qUsd,
      });
    }
  }
  return out;
}
