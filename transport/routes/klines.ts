// GET /{market}/klines/{symbol}: daily K-line rows of one symbol.

import { dateText } from '../../engine/calendar/date-text.js';
import { qfqBaseRow } from '../../engine/kernels/adjust.js';
import { klineWindow } from '../../engine/kernels/kline-window.js';
import { klineFieldsParam } from '../params/fields.js';
import { route } from '../route.js';
import { periodSeries } from '../caches/kline-text.js';
import { type KlinesResult, klinesShape } from '../shapes/klines.js';
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
  handle({ dataset, params, plan }, p) {
    const m = marketOf(dataset, params[0]);
    checkRange(p.start, p.end);
    const window = { start: p.start, end: p.end, offset: p.offset, limit: clamp(p.limit, plan.rowsPerCall) };
    if (p.qfq_base !== null && p.adj !== 'qfq')
      throw badParam('qfq_base', `qfq_base applies to adj=qfq, not adj=${p.adj}`);
    if (p.qfq_base !== null && p.period !== 'day')
      throw badParam('period', `period=${p.period} cannot be combined with qfq_base`);
    const i = symbolOf(m, params[1]);
    const k = m.klines;
    const base = qfqBaseRow(k.date, k.offsets[i], k.offsets[i + 1], p.qfq_base);
    if (base < 0 && k.offsets[i + 1] > k.offsets[i])
      throw badParam('qfq_base', `${m.symbols.codes[i]} has no row on or before ${dateText(p.qfq_base!)}`);
    // Bars are windowed by their dates, as rows are; the rendered series is kept with the rendered rows.
    const series = p.period === 'day' ? null : periodSeries(dataset, m, i, p.period, p.adj, p.fields);
    const { from, to, total } =
      series === null
        ? klineWindow(k.date, k.offsets[i], k.offsets[i + 1], window)
        : klineWindow(series.dates, 0, series.dates.length, window);
    const result: KlinesResult = {
      dataset,
      m,
      i,
      window,
      from,
      to,
      total,
      adj: p.adj,
      base,
      fields: p.fields,
      period: p.period,
      series,
    };
    return { shape: klinesShape, result, rows: to - from, page: { offset: p.offset, count: to - from, total } };
  },
});
