// GET /{market}/klines/{symbol}: daily K-line rows of one symbol.

import { klineSlice } from '../../engine/queries/klines.js';
import { parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import { klineRows } from '../serialise/rows.js';
import { fieldNames, KLINE_PARAMS, klineFields } from './kline-params.js';
import { checkRange, clamp, marketOf, symbolOf } from './lookup.js';

export const klinesRoute: Route = {
  pattern: '/api/v1/:market/klines/:symbol',
  paramNames: ['market', 'symbol'],
  auth: true,
  charges: true,
  handle({ dataset, params, query, plan }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, KLINE_PARAMS);
    checkRange(p.start, p.end);
    const fields = klineFields(p.fields, ['*']);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const i = symbolOf(m, params[1]);
    const slice = klineSlice(m, i, { start: p.start, end: p.end, offset: p.offset, limit }, p.adj, fields);
    const symbol = m.symbols.codes[i];
    const value = { market: m.market, symbol, count: slice.count, total: slice.total, offset: p.offset, limit, fields: fieldNames(fields), data: klineRows(slice, symbol, fields) };
    return { shape: 'klines', value, rows: slice.count };
  },
};
