// GET /markets: the overview of all six markets.

import { dateText } from '../../engine/calendar/date-text.js';
import { marketsOverview } from '../../engine/queries/markets-overview.js';
import type { Route } from '../route.js';

export const marketsRoute: Route = {
  pattern: '/api/v1/markets',
  paramNames: [],
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
    return { shape: 'markets', value: { count: data.length, data }, rows: data.length };
  },
};
