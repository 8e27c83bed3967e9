// GET /{market}/symbols: list or search a market's symbol codes.

import { searchSymbols } from '../../engine/queries/symbol-search.js';
import { integer, parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import { clamp, marketOf } from './lookup.js';

const SEARCH_MAX_LIMIT = 100;
const search = (raw: string | undefined): string | null => (raw === undefined ? null : raw.trim());
const PARAMS = { search, limit: integer(50, 1), offset: integer(0, 0) };

export const symbolsRoute: Route = {
  pattern: '/api/v1/:market/symbols',
  paramNames: ['market'],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, params, query }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, PARAMS);
    const limit = clamp(p.limit, SEARCH_MAX_LIMIT);
    const page = searchSymbols(m.symbols, p.search, p.offset, limit);
    const data = page.indices.map((i) => ({ symbol: m.symbols.codes[i], name: m.symbols.name(i) }));
    return { shape: 'symbols', value: { market: m.market, total: page.total, count: data.length, limit, offset: p.offset, data }, rows: data.length };
  },
};
