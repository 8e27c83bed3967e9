// GET /{market}/klines: K-line rows (or period bars) of several symbols, or every symbol's row of one day.

import { KLINE_FIELDS } from '../../engine/columns.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import type { DayRowsCache } from '../../engine/queries/cross-section.js';
import { type KlineAsk, klineBatch, klineDay, klinePage, type KlineResult } from '../../engine/queries/klines.js';
import { date, symbolList } from '../params/declare.js';
import { klineFieldsParam } from '../params/fields.js';
import { badParam } from '../problem.js';
import { type Reply, route } from '../route.js';
import { crossSectionShape } from '../shapes/cross-section.js';
import { klinesBatchShape } from '../shapes/klines-batch.js';
import { ADJ, BATCH_SIZE, KLINE_LIMIT, KLINE_WINDOW, OFFSET, PERIOD } from './kline-params.js';
import { batchOf, checkRange, clamp, marketOf, requireSome } from './lookup.js';

export const klinesBatchRoute = route({
  pattern: '/api/v1/:market/klines',
  operationId: 'getKlinesBatch',
  summary: 'K-lines of several symbols, or the cross-section: a whole market on one day',
  description:
    'With `symbols`: `data` is keyed by symbol (canonical codes) in request order; symbols that do not exist are listed in `missing` as given (404 when none exists). `limit` counts rows (or bars) per symbol. ' +
    'Without `symbols`, `date` asks for the cross-section: every symbol\'s row of that day (symbols without one are absent), ordered by symbol, paged by `limit` and `offset` with `Link: rel="next"` while rows remain, all fields unless `fields` narrows them, `adj=qfq` to each symbol\'s latest factor; the answer is `{"market","date","total","count","limit","offset","fields","data":[rows]}`. Without `symbols` and without `date` it is 400 naming `symbols`.',
  tag: 'K-lines',
  moreTags: ['Bulk data'],
  query: {
    symbols: symbolList(false, `${BATCH_SIZE} Omitted with \`date\`: the cross-section.`),
    date: date(
      "One day; each symbol gets its row of that day or an empty array (without `symbols`: every symbol's row). Combined with `start`, `end` or a `period` other than day it is 400 `invalid_parameter`.",
    ),
    ...KLINE_WINDOW,
    fields: klineFieldsParam(
      ['close', 'volume'],
      'Short codes (o,h,l,c,v,a) or full names, or `*`; default close,volume (all fields for the cross-section).',
    ),
    adj: ADJ,
    period: PERIOD,
    limit: KLINE_LIMIT,
    offset: OFFSET,
  },
  shape: klinesBatchShape,
  otherShapes: [
    {
      shape: crossSectionShape,
      example: {
        market: 'ashare',
        date: '2025-06-30',
        total: 3012,
        count: 2,
        limit: 2,
        offset: 0,
        fields: ['symbol', 'date', 'close', 'volume', 'adj_factor'],
        data: [
          { symbol: 'sh600000', date: '2025-06-30', close: 10.41, volume: 398765, adj_factor: 7.1846 },
          { symbol: 'sh600004', date: '2025-06-30', close: 9.12, volume: 201554, adj_factor: 3.0412 },
        ],
      },
    },
  ],
  example: {
    market: 'ashare',
    count: 2,
    limit: 100,
    offset: 0,
    fields: ['symbol', 'date', 'close', 'volume', 'adj_factor'],
    data: {
      sh600000: [{ symbol: 'sh600000', date: '2025-06-30', close: 10.41, volume: 398765, adj_factor: 7.1846 }],
      sz000001: [{ symbol: 'sz000001', date: '2025-06-30', close: 11.87, volume: 912004, adj_factor: 112.4 }],
    },
    missing: ['sh999999'],
  },
  problems: ['batch_too_large', 'unknown_symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  paged: true,
  handle({ dataset, caches, params, plan, query }, p) {
    const m = marketOf(dataset, params[0]);
    if (p.date !== null && (p.start !== null || p.end !== null))
      throw badParam('date', 'date cannot be combined with start or end');
    if (p.date !== null && p.period !== 'day')
      throw badParam('period', `period=${p.period} cannot be combined with date`);
    checkRange(p.start, p.end);
    const limit = clamp(p.limit, plan.rowsPerCall);
    if (p.symbols === null) {
      if (p.date === null) throw badParam('symbols', 'is required unless date asks for one day of every symbol');
      const fields = query.has('fields') ? p.fields : [...KLINE_FIELDS];
      const window = { start: p.date, end: p.date, offset: p.offset, limit };
      return crossSectionReply(m, p.date, { window, adj: p.adj, period: 'day', fields }, caches.dayRows);
    }
    const batch = batchOf(m, p.symbols, plan);
    requireSome(batch, m);
    const window =
      p.date !== null
        ? { start: p.date, end: p.date, offset: p.offset, limit }
        : { start: p.start, end: p.end, offset: p.offset, limit };
    const ask: KlineAsk = { window, adj: p.adj, period: p.period, fields: p.fields };
    const result =
      p.date !== null ? klineDay(m, batch.found, p.date, ask) : klineBatch(m, batch.found, ask, caches.bars);
    return { shape: klinesBatchShape, result: { ...result, missing: batch.missing }, rows: result.count };
  },
});

/** The cross-section page: every symbol's row of `day`, rows [offset, offset + limit) of them. */
function crossSectionReply(m: MarketData, day: number, ask: KlineAsk, days: DayRowsCache): Reply<KlineResult> {
  const all = days.of(m, day);
  const total = all.rows.length;
  const { offset, limit } = ask.window;
  const end = Math.min(total, offset + limit);
  const page = { symbols: all.symbols.subarray(offset, end), rows: all.rows.subarray(offset, end) };
  const result = klinePage(m, day, page, total, ask);
  return { shape: crossSectionShape, result, rows: result.count, page: { offset, count: result.count, total } };
}
