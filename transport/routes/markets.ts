// GET /markets: the overview of all six markets.

import { dateText } from '../../engine/calendar/date-text.js';
import { marketsOverview } from '../../engine/queries/markets-overview.js';
import { route } from '../route.js';
import { marketsShape } from '../shapes/plain.js';

export const marketsRoute = route({
  pattern: '/api/v1/markets',
  operationId: 'listMarkets',
  summary: 'Overview of all markets',
  description:
    'Per market (ashare, hkstock, usstock, crypto, indices, etfs in that order): symbol count, data rows and date range.',
  tag: 'Reference',
  query: {},
  shape: marketsShape,
  example: {
    count: 2,
    data: [
      { market: 'ashare', symbols: 3000, rows: 7305000, start_date: '2016-01-04', end_date: '2025-06-30' },
      { market: 'crypto', symbols: 0, rows: 0, start_date: null, end_date: null },
    ],
  },
  problems: [],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset }) {
    const data = marketsOverview(dataset).map((m) => ({
      market: m.market,
      symbols: m.symbols,
      rows: m.rows,
      start_date: m.startDate === null ? null : dateText(m.startDate),
      end_date: m.endDate === null ? null : dateText(m.endDate),
    }));
    return { shape: marketsShape, result: { count: data.length, data }, rows: data.length };
  },
});
