// Writes one market's folder of the demo: symbols.csv, klines.csv and fundamentals.csv.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDate } from '../../engine/calendar/days.js';
import { ByteSink } from './byte-sink.js';
import { fundamentalColumns, symbolFundamentals } from './fundamentals.js';
import { KLINE_HEADER, writeSymbolKlines, type PriceTrace } from './klines.js';
import type { MarketPlan } from './plan.js';
import { Rng, STREAM, streamSeed } from './prng.js';

/** Rows between two progress reports: often enough for a smooth line, rare enough to cost nothing. */
const REPORT_EVERY = 200_000;

/** "YYYY-MM-DD," as 11 ASCII bytes per trading day. */
function dateBytes(days: Int32Array): Uint8Array {
  const out = new Uint8Array(days.length * 11);
  for (let i = 0; i < days.length; i++) {
    const s = `${formatDate(days[i])},`;
    for (let k = 0; k < 11; k++) out[i * 11 + k] = s.charCodeAt(k);
  }
  return out;
}

/** Writes `<dir>/<market>/…` for one planned market; `onRows` hears row counts as they are written. */
export function writeMarket(
  dir: string,
  plan: MarketPlan,
  seed: number,
  onRows: (rows: number) => void,
): { rows: number; bytes: number } {
  const folder = join(dir, plan.market);
  mkdirSync(folder, { recursive: true });
  const symbolsCsv = [
    'symbol,name,market_name,market_type\n',
    ...plan.symbols.map(({ info }) => `${info.symbol},${info.name},${info.marketName},${info.marketType}\n`),
  ].join('');
  writeFileSync(join(folder, 'symbols.csv'), symbolsCsv);

  const columns = fundamentalColumns(plan.market);
  const klines = new ByteSink(join(folder, 'klines.csv'));
  const fundamentals = new ByteSink(join(folder, 'fundamentals.csv'), 1 << 20);
  klines.text(KLINE_HEADER);
  fundamentals.text(`${['symbol', 'date', ...columns].join(',')}\n`);

  const longest = Math.max(...plan.symbols.map((s) => s.days.length));
  // One trace reused by every symbol: no per-symbol arrays on the hot path.
  const trace: PriceTrace = {
    decimals: 2,
    lot: 1,
    close: new Float64Array(longest),
    low: new Float64Array(longest),
    high: new Float64Array(longest),
    volume: new Float64Array(longest),
  };
  const dateCache = new Map<Int32Array, Uint8Array>();
  let rows = 0,
    pending = 0;
  for (const symbol of plan.symbols) {
    let dates = dateCache.get(symbol.days);
    if (!dates) dateCache.set(symbol.days, (dates = dateBytes(symbol.days)));
    const prices = new Rng(streamSeed(seed, plan.marketIndex, symbol.index, STREAM.prices));
    const written = writeSymbolKlines(klines, symbol, plan.profile, prices, dates, trace);
    const facts = new Rng(streamSeed(seed, plan.marketIndex, symbol.index, STREAM.fundamentals));
    fundamentals.text(symbolFundamentals(plan.market, columns, symbol, trace, facts));
    rows += written;
    pending += written;
    if (pending >= REPORT_EVERY) onRows(pending), (pending = 0);
  }
  klines.close();
  fundamentals.close();
  if (pending > 0) onRows(pending);
  return { rows, bytes: Buffer.byteLength(symbolsCsv) + klines.bytes + fundamentals.bytes };
}
