// GET /{market}/klines: daily K-line rows of several symbols.

import { klineSlice } from '../../engine/queries/klines.js';
import { badParam } from '../problem.js';
import { list, parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import { klineRows } from '../serialise/rows.js';
import { fieldNames, KLINE_PARAMS, klineFields } from './kline-params.js';
import { batchOf, checkRange, clamp, marketOf, requireSome } from './lookup.js';
import { optionalDate } from '../params/rules.js';

const PARAMS = { ...KLINE_PARAMS, symbols: list(true), date: optionalDate };

export const klinesBatchRoute: Route = {
  pattern: '/api/v1/:market/klines',
  paramNames: ['market'],
  auth: true,
  charges: true,
  handle({ dataset, params, query, plan }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, PARAMS);
    if (p.date !== null && (p.start !== null || p.end !== null)) throw badParam('date', 'date cannot be combined with start or end');
    checkRange(p.start, p.end);
    const fields = klineFields(p.fields, ['close', 'volume']);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const batch = batchOf(m, p.symbols!, plan);
    requireSome(batch, m);
    const window = p.date !== null ? { start: p.date, end: p.date, offset: p.offset, limit } : { start: p.start, end: p.end, offset: p.offset, limit };
    const data: Record<string, unknown[]> = {};
    let count = 0;
    for (const i of batch.found) {
      const slice = klineSlice(m, i, window, p.adj, fields);
      const symbol = m.symbols.codes[i];
      data[symbol] = klineRows(slice, symbol, fields);
      count += slice.count;
    }
    const value: Record<string, unknown> = { market: m.market, count, limit, offset: p.offset, fields: fieldNames(fields), data };
    if (batch.missing.length > 0) value.missing = batch.missing;
    return { shape: 'klinesBatch', value, rows: count };
  },
};
