// GET /{market}/klines/{symbol}: daily K-line rows of one symbol.

import { parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import type { BodyPart } from '../serialise/assemble.js';
import { renderedWindow } from './kline-text.js';
import { fieldNames, KLINE_PARAMS, klineFields } from './kline-params.js';
import { checkRange, clamp, marketOf, symbolOf } from './lookup.js';

const CLOSE = ']}';

/** Symbol codes are validated to [A-Za-z0-9._-] at load, so they are written unescaped. */
export const klinesRoute: Route = {
  pattern: '/api/v1/:market/klines/:symbol',
  paramNames: ['market', 'symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, params, query, plan }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, KLINE_PARAMS);
    checkRange(p.start, p.end);
    const fields = klineFields(p.fields, ['*']);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const i = symbolOf(m, params[1]);
    const rows: BodyPart[] = [];
    const w = renderedWindow(dataset, m, i, { start: p.start, end: p.end, offset: p.offset, limit }, p.adj, fields, rows);
    const head =
      `{"market":"${m.market}","symbol":"${m.symbols.codes[i]}","count":${w.count},"total":${w.total},` +
      `"offset":${p.offset},"limit":${limit},"fields":${JSON.stringify(fieldNames(fields))},"data":[`;
    rows.push(CLOSE);
    rows.unshift(head);
    return { shape: 'klines', body: rows, rows: w.count };
  },
};
