// GET /{market}/klines: daily K-line rows of several symbols.

import { klineWindow } from '../../engine/kernels/kline-window.js';
import { date, list } from '../params/declare.js';
import { klineFieldsParam } from '../params/fields.js';
import { badParam } from '../problem.js';
import { route } from '../route.js';
import { klinesBatchShape } from '../shapes/klines-batch.js';
import { ADJ, BATCH_SIZE, KLINE_LIMIT, KLINE_WINDOW, OFFSET } from './kline-params.js';
import { batchOf, checkRange, clamp, marketOf, requireSome } from './lookup.js';

export const klinesBatchRoute = route({
  pattern: '/api/v1/:market/klines',
  operationId: 'getKlinesBatch',
  summary: 'Daily K-lines of several symbols',
  description:
    '`data` is keyed by symbol in request order; symbols that do not exist are listed in `missing` (404 when none exists). `limit` counts rows per symbol.',
  tag: 'K-lines',
  query: {
    symbols: list(true, { type: 'string' }, BATCH_SIZE),
    date: date(
      'One day; each symbol gets its row of that day or an empty array. Combined with `start` or `end` it is 400 `invalid_parameter`.',
    ),
    ...KLINE_WINDOW,
    fields: klineFieldsParam(
      ['close', 'volume'],
      'Short codes (o,h,l,c,v,a) or full names, or `*`; default close,volume.',
    ),
    adj: ADJ,
    limit: KLINE_LIMIT,
    offset: OFFSET,
  },
  shape: klinesBatchShape,
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
  handle({ dataset, params, plan }, p) {
    const m = marketOf(dataset, params[0]);
    if (p.date !== null && (p.start !== null || p.end !== null))
      throw badParam('date', 'date cannot be combined with start or end');
    checkRange(p.start, p.end);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const batch = batchOf(m, p.symbols!, plan);
    requireSome(batch, m);
    const window =
      p.date !== null
        ? { start: p.date, end: p.date, offset: p.offset, limit }
        : { start: p.start, end: p.end, offset: p.offset, limit };
    let count = 0;
    const windows = batch.found.map((i) => {
      const { from, to } = klineWindow(m.klines.date, m.klines.offsets[i], m.klines.offsets[i + 1], window);
      count += to - from;
      return { i, from, to };
    });
    return {
      shape: klinesBatchShape,
      result: { dataset, m, window, adj: p.adj, fields: p.fields, windows, count, missing: batch.missing },
      rows: count,
    };
  },
});
