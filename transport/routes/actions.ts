// GET /{market}/actions/{symbol}: one symbol's adjustment events (the rows whose adj_factor changed).

import { adjustmentEvents } from '../../engine/queries/actions.js';
import { date } from '../params/declare.js';
import { route } from '../route.js';
import { actionsShape } from '../shapes/actions.js';
import { checkRange, marketOf, symbolOf } from './lookup.js';

export const actionsRoute = route({
  pattern: '/api/v1/:market/actions/:symbol',
  operationId: 'getActions',
  summary: "One symbol's adjustment events (splits, dividends)",
  description:
    "Each K-line row of the symbol whose `adj_factor` differs from the symbol's row before it, by date ascending: `date` is the row's day, " +
    '`adj_factor` its cumulative adjustment factor and `prev_adj_factor` the one of the row before (as stored, dimensionless), ' +
    '`ratio` = adj_factor ÷ prev_adj_factor rounded half away from zero to 6 decimals (dimensionless: a 2-for-1 split shows 2, a cash dividend a little above 1). ' +
    "`start` and `end` select events by their day; the row before may lie before `start`. The symbol's first row is never an event. " +
    'Not paged: every event of the range in one answer.',
  tag: 'K-lines',
  query: {
    start: date('First day (inclusive) of the events to return.'),
    end: date('Last day (inclusive); `start` after `end` is a 400.'),
  },
  shape: actionsShape,
  example: {
    market: 'ashare',
    symbol: 'sh600000',
    count: 2,
    data: [
      { date: '2024-07-15', adj_factor: 7.0385, prev_adj_factor: 6.8861, ratio: 1.022132 },
      { date: '2025-06-20', adj_factor: 14.077, prev_adj_factor: 7.0385, ratio: 2 },
    ],
  },
  problems: ['unknown_symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, params }, p) {
    const m = marketOf(dataset, params[0]);
    checkRange(p.start, p.end);
    const i = symbolOf(m, params[1]);
    const rows = adjustmentEvents(m.klines, i, p.start, p.end);
    return { shape: actionsShape, result: { m, i, rows }, rows: rows.length };
  },
});
