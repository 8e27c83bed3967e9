// K-line window + adjustment + rendering: cached row text (hot, cold) against row objects + JSON.stringify.

import { KLINE_FIELDS } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import { type AdjustMode, type KlineAsk, klineQuery, sliceOf, type WindowQuery } from '../../engine/queries/klines.js';
import { KlineTextCache } from '../../transport/caches/kline-text.js';
import { assemble, type BodyPart } from '../../transport/serialise/assemble.js';
import { serialisers } from '../../transport/serialise/compile.js';
import { fieldNames } from '../../transport/serialise/kline-json.js';
import { klineRows } from '../../transport/serialise/rows.js';
import { bodyText, keptFor, type MicroCase, thousands } from './case.js';
import { prng } from './seeded.js';

/** The K-line cases: the latest `rows` of one symbol, all fields. 5,000 asks more than any demo history holds (crypto's 10 years ≈ 3,650). */
export const KLINE_CASES: { market: Market; rows: number; adj: AdjustMode }[] = [
  { market: 'ashare', rows: 100, adj: 'bfq' },
  { market: 'ashare', rows: 100, adj: 'qfq' },
  { market: 'ashare', rows: 1_000, adj: 'qfq' },
  { market: 'crypto', rows: 5_000, adj: 'qfq' },
];

const FIELDS = [...KLINE_FIELDS];

/** A seeded symbol with at least `rows` rows, or the one with the longest history when none has that many. */
export function symbolWithRows(m: MarketData, rows: number, random = prng()): number {
  const enough: number[] = [];
  let longest = 0;
  for (let i = 0; i < m.symbols.size; i++) {
    const n = m.klines.offsets[i + 1] - m.klines.offsets[i];
    if (n >= rows) enough.push(i);
    if (n > m.klines.offsets[longest + 1] - m.klines.offsets[longest]) longest = i;
  }
  return enough.length > 0 ? enough[Math.floor(random() * enough.length)] : longest;
}

/** The envelope of GET /{market}/klines/{symbol}, as the route writes it. */
function head(m: MarketData, i: number, count: number, total: number, limit: number): string {
  return `{"market":"${m.market}","symbol":"${m.symbols.codes[i]}","count":${count},"total":${total},"offset":0,"limit":${limit},"fields":${JSON.stringify(fieldNames(FIELDS))},"data":[`;
}

/** One case per row of KLINE_CASES (markets without symbols are left out). */
export function klineCases(dataset: Dataset): MicroCase[] {
  const out: MicroCase[] = [];
  for (const spec of KLINE_CASES) {
    const m = dataset.markets[spec.market];
    if (m.symbols.size === 0) continue;
    const i = symbolWithRows(m, spec.rows);
    const code = m.symbols.codes[i];
    const q: WindowQuery = { start: null, end: null, offset: 0, limit: spec.rows };
    const ask: KlineAsk = { window: q, adj: spec.adj, period: 'day', fields: FIELDS };
    const probe = klineQuery(m, i, ask);
    const count = probe.count;
    const envelope = head(m, i, count, probe.total, spec.rows);
    const kept = keptFor(dataset).klineRows;
    /** Objects as the design first had them: a slice, row objects, then a serialiser. */
    const value = () => {
      const r = klineQuery(m, i, ask);
      const slice = sliceOf(r, r.windows[0]);
      return {
        market: m.market,
        symbol: code,
        count: slice.count,
        total: slice.total,
        offset: 0,
        limit: spec.rows,
        fields: fieldNames(FIELDS),
        data: klineRows(slice, code, FIELDS),
      };
    };
    const rendered = (cache: KlineTextCache): Buffer => {
      const parts: BodyPart[] = [envelope];
      const r = klineQuery(m, i, ask); // the route's path: the query, then the Dataset's kept rows
      cache.rows(r, r.windows[0], parts);
      parts.push(']}');
      return assemble(parts); // a view of the reused scratch buffer, as send() gets it
    };
    out.push({
      group: 'klines',
      name: `${spec.market} ${spec.adj} ${thousands(spec.rows)} rows`,
      detail: `${code}, ${thousands(count)} rows answered${count < spec.rows ? ' (its whole history)' : ''}`,
      variants: [
        { name: 'cached row text (hot)', run: () => rendered(kept) },
        { name: 'render rows (cold cache)', run: () => rendered(new KlineTextCache(64 << 20)) },
        { name: 'row objects + fjs', run: () => Buffer.from(serialisers.klines(value())) },
        { name: 'row objects + JSON.stringify', run: () => Buffer.from(JSON.stringify(value())) },
      ],
      baseline: 'row objects + JSON.stringify',
      answer: bodyText,
    });
  }
  return out;
}
