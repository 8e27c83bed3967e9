// GET /{market}/calendar: the days on which the market has K-line rows, paged.

import { queryCalendar } from '../../engine/queries/calendar.js';
import { date, integer } from '../params/declare.js';
import { route } from '../route.js';
import { calendarShape } from '../shapes/calendar.js';
import { ROWS_PER_CALL } from './kline-params.js';
import { checkRange, clamp, marketOf } from './lookup.js';

export const calendarRoute = route({
  pattern: '/api/v1/:market/calendar',
  operationId: 'getCalendar',
  summary: "The market's trading days",
  description:
    'Every day on which at least one symbol of the market has a K-line row, by date ascending, one row `{"date":"YYYY-MM-DD"}` per day. ' +
    "`total` counts the days of the window [`start`, `end`] before limit and offset; `offset` skips days forward from the window's earliest day. " +
    '`total`, `count`, `limit` and `offset` count days. A market without rows answers `total` 0. ' +
    'While days remain, `Link: <…>; rel="next"` names the next page.',
  tag: 'Reference',
  query: {
    start: date('First day of the window (inclusive).'),
    end: date('Last day of the window (inclusive); `start` after `end` is a 400.'),
    limit: integer(100, 1, `Days to return. ${ROWS_PER_CALL}`),
    offset: integer(0, 0, "Days to skip from the window's earliest day."),
  },
  shape: calendarShape,
  example: {
    market: 'ashare',
    total: 2436,
    count: 2,
    limit: 2,
    offset: 0,
    data: [{ date: '2015-07-01' }, { date: '2015-07-02' }],
  },
  problems: [],
  auth: true,
  charges: true,
  cacheable: true,
  paged: true,
  handle({ dataset, params, plan }, p) {
    const m = marketOf(dataset, params[0]);
    checkRange(p.start, p.end);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const { days, total } = queryCalendar(m, { start: p.start, end: p.end, offset: p.offset, limit });
    const result = { market: m.market, days, total, limit, offset: p.offset };
    return {
      shape: calendarShape,
      result,
      rows: days.length,
      page: { offset: p.offset, count: days.length, total },
    };
  },
});
