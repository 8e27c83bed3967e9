// GET /{market}/klines/{symbol}: daily K-line rows of one symbol.

import { dateText } from '../../engine/calendar/date-text.js';
import { klineQuery, qfqBaseOf } from '../../engine/queries/klines.js';
import { klineFieldsParam } from '../params/fields.js';
import { route } from '../route.js';
import { klinesShape } from '../shapes/klines.js';
import { badParam } from '../problem.js';
import { ADJ, KLINE_LIMIT, KLINE_WINDOW, OFFSET, PERIOD, QFQ_BASE } from './kline-params.js';
import { checkRange, clamp, marketOf, symbolOf } from './lookup.js';

export const klinesRoute = route({
  pattern: '/api/v1/:market/klines/:symbol',
  operationId: 'getKlines',
  summary: 'K-lines of one symbol: daily rows or weekly to yearly bars',
  description:
    'Rows by date ascending (bars with `period`). `total` counts the rows of the date range before limit and offset. While rows remain, `Link: <…>; rel="next"` names the next page (older rows when the window is anchored at its end, later rows with `start`).',
  tag: 'K-lines',
  query: {
    ...KLINE_WINDOW,
    fields: klineFieldsParam(
      ['*'],
      'Short codes (o,h,l,c,v,a) or full names, or `*`; default all. symbol, date and adj_factor are always returned.',
    ),
    adj: ADJ,
    qfq_base: QFQ_BASE,
    period: PERIOD,
    limit: KLINE_LIMIT,
    offset: OFFSET,
  },
  shape: klinesShape,
  example: {
    market: 'ashare',
    symbol: 'sh600000',
    count: 2,
    total: 2436,
    offset: 0,
    limit: 2,
    fields: ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'],
    data: [
      {
        symbol: 'sh600000',
        date: '2025-06-27',
        open: 10.21,
        high: 10.35,
        low: 10.16,
        close: 10.3,
        volume: 412345,
        amount: 423456789,
        adj_factor: 7.1846,
      },
      {
        symbol: 'sh600000',
        date: '2025-06-30',
        open: 10.3,
        high: 10.44,
        low: 10.25,
        close: 10.41,
        volume: 398765,
        amount: 414321987,
        adj_factor: 7.1846,
      },
    ],
  },
  problems: ['unknown_symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  paged: true,
  handle({ dataset, caches, params, plan }, p) {
    const m = marketOf(dataset, params[0]);
    checkRange(p.start, p.end);
    const window = { start: p.start, end: p.end, offset: p.offset, limit: clamp(p.limit, plan.rowsPerCall) };
    if (p.qfq_base !== null && p.adj !== 'qfq')
      throw badParam('qfq_base', `qfq_base applies to adj=qfq, not adj=${p.adj}`);
    if (p.qfq_base !== null && p.period !== 'day')
      throw badParam('period', `period=${p.period} cannot be combined with qfq_base`);
    const i = symbolOf(m, params[1]);
    const base = qfqBaseOf(m, i, p.qfq_base);
    if (base < 0 && m.klines.offsets[i + 1] > m.klines.offsets[i])
      throw badParam('qfq_base', `${m.symbols.codes[i]} has no row on or before ${dateText(p.qfq_base!)}`);
    // Bars are windowed by their dates, as rows are; a symbol's bars are kept between answers.
    const result = klineQuery(
      m,
      i,
      { window, adj: p.adj, period: p.period, fields: p.fields },
      { base, bars: caches.bars },
    );
    return {
      shape: klinesShape,
      result,
      rows: result.count,
      page: { offset: p.offset, count: result.count, total: result.total },
    };
  },
});
