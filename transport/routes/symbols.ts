// GET /{market}/symbols: list or search a market's symbol codes.

import { searchSymbols } from '../../engine/queries/symbol-search.js';
import { integer, text } from '../params/declare.js';
import { route } from '../route.js';
import { symbolsShape } from '../shapes/plain.js';
import { clamp, marketOf } from './lookup.js';

const SEARCH_MAX_LIMIT = 100;

export const symbolsRoute = route({
  pattern: '/api/v1/:market/symbols',
  operationId: 'listSymbols',
  summary: 'Search or list the symbols of a market',
  description:
    'With `search`: exact code, then code prefix, then code substring, then name substring (case-insensitive), ties by symbol; a term naming a symbol in another form every route takes (`600000.SH`, `0700.HK`, `AAPL`, `BTC-USDT`) finds it first, as its code would. Without: all symbols by symbol. While symbols remain, `Link: <…>; rel="next"` names the next page.',
  tag: 'Reference',
  query: {
    search: text('Text matched against code and name (trimmed; empty lists every symbol).'),
    limit: integer(50, 1, `Rows to return. A value above ${SEARCH_MAX_LIMIT} is clamped to ${SEARCH_MAX_LIMIT}.`),
    offset: integer(0, 0, 'Rows to skip.'),
  },
  shape: symbolsShape,
  example: {
    market: 'ashare',
    total: 2,
    count: 2,
    limit: 50,
    offset: 0,
    data: [
      { symbol: 'sh600000', name: 'Pudong Bank' },
      { symbol: 'sh600004', name: null },
    ],
  },
  problems: [],
  auth: true,
  charges: true,
  cacheable: true,
  paged: true,
  handle({ dataset, params }, p) {
    const m = marketOf(dataset, params[0]);
    const limit = clamp(p.limit, SEARCH_MAX_LIMIT);
    const page = searchSymbols(m.symbols, p.search, p.offset, limit);
    const data = page.indices.map((i) => ({ symbol: m.symbols.codes[i], name: m.symbols.name(i) }));
    const result = { market: m.market, total: page.total, count: data.length, limit, offset: p.offset, data };
    return {
      shape: symbolsShape,
      result,
      rows: data.length,
      page: { offset: p.offset, count: data.length, total: page.total },
    };
  },
});
