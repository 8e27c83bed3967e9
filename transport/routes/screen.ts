// GET /{market}/screen: filter, sort and page the latest snapshots of one market.

import { NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { Dataset, MarketData, SnapshotView } from '../../engine/dataset/dataset.js';
import type { Memo } from '../caches/memo.js';
import type { Plan } from '../../engine/plans.js';
import { screen, type ScreenQuery, type ScreenResult } from '../../engine/queries/screen.js';
import { decimal, integer, oneOf, type Parsed, type PatternParam } from '../params/declare.js';
import { snapshotFieldsParam } from '../params/fields.js';
import { badParam } from '../problem.js';
import { type Reply, route } from '../route.js';
import type { ColumnSet } from '../shapes/detail.js';
import { type ScreenPage, screenShape } from '../shapes/screen.js';
import { ROWS_PER_CALL } from './kline-params.js';
import { AS_OF } from './as-of.js';
import { clamp, marketOf } from './lookup.js';

const WHITELIST: ReadonlySet<string> = new Set(NUMERIC_SNAPSHOT_COLUMNS);

/** `min_<column>` / `max_<column>`: one pair of optional parameters per whitelisted column in the OpenAPI document. */
const BOUNDS: PatternParam = {
  name: 'bounds',
  matches: (name) => name.startsWith('min_') || name.startsWith('max_'),
  members: NUMERIC_SNAPSHOT_COLUMNS.flatMap((c) => [`min_${c}`, `max_${c}`]),
  schema: { type: 'number' },
  doc:
    'Inclusive bounds `min_<column>` and `max_<column>` (finite decimals), e.g. `min_pe_ratio=0&max_pe_ratio=15`. ' +
    'A row whose bounded column is null is excluded; a bounded column is added to the rows. A column outside the whitelist is 400 `invalid_parameter`. ' +
    `Whitelist: ${NUMERIC_SNAPSHOT_COLUMNS.join(', ')}.`,
  memberDoc: (name) =>
    `Inclusive ${name.startsWith('min_') ? 'lower' : 'upper'} bound of \`${name.slice(4)}\` (a finite decimal); a row whose \`${name.slice(4)}\` is null is excluded, and the column is added to the rows.`,
};

/** The bounds of a screen's query as inclusive ranges; a column off the whitelist is a 400. */
function boundsOf(query: ReadonlyMap<string, string>): Map<string, { min: number; max: number }> {
  const bounds = new Map<string, { min: number; max: number }>();
  for (const [name, raw] of query) {
    if (!BOUNDS.matches(name)) continue;
    const side = name.startsWith('min_') ? 'min' : 'max';
    const column = name.slice(4);
    if (!WHITELIST.has(column)) throw badParam(name, `'${column}' is not a screenable column`);
    const bound = bounds.get(column) ?? { min: -Infinity, max: Infinity };
    bound[side] = decimal(raw, name);
    bounds.set(column, bound);
  }
  for (const [column, b] of bounds)
    if (b.min > b.max) throw badParam(`min_${column}`, `min_${column} is above max_${column}`);
  return bounds;
}

/** Columns of a screen row by default: identity, close, change, valuation, size, momentum. */
const DEFAULT_COLUMNS = new Set(
  SNAPSHOT_COLUMNS.filter(
    (c) =>
      ['symbol', 'name', 'date', 'close', 'change_percent'].includes(c.name) ||
      ['valuation', 'size', 'momentum'].includes(c.category),
  ).map((c) => c.name),
);
const ALL_COLUMNS = SNAPSHOT_COLUMNS.map((c) => c.name);

/**
 * The row's columns in table order: the requested ones (plus symbol, name, date) or the defaults,
 * plus bounded and sort columns; worked out once per request shape (`sets`: the server's memo).
 */
function rowColumnSet(
  fields: string[] | null,
  bounds: ReadonlyMap<string, unknown>,
  sort: string,
  sets: Memo<ColumnSet>,
): ColumnSet {
  // Canonical column names hold no `|` or `>`, so the shape text names one set.
  let shape = fields === null ? '' : fields.join(',');
  for (const column of bounds.keys()) shape += `|${column}`;
  shape += `>${sort}`;
  return sets.of(shape, () => {
    const wanted = new Set(fields === null ? DEFAULT_COLUMNS : ['symbol', 'name', 'date', ...fields]);
    for (const column of bounds.keys()) wanted.add(column);
    wanted.add(sort);
    const columns = ALL_COLUMNS.filter((c) => wanted.has(c));
    return { columns, key: columns.join(',') };
  });
}

/** The screen's declared query parameters (a standing screen over WebSocket is parsed by these too). */
const SCREEN_QUERY = {
  sort: oneOf(NUMERIC_SNAPSHOT_COLUMNS, 'change_percent', 'Column to sort by (the whitelist).'),
  order: oneOf(['asc', 'desc'] as const, 'desc', 'Sort order.'),
  fields: snapshotFieldsParam('Narrows the rows to these columns (symbol, name and date stay); `*` for all.'),
  limit: integer(50, 1, `Rows to return. ${ROWS_PER_CALL}`),
  offset: integer(0, 0, 'Rows to skip.'),
  as_of: AS_OF,
};

/** The screen's parameters as parsed (GET /{market}/screen's and a standing screen's). */
export type ScreenParams = Parsed<typeof SCREEN_QUERY>;

/** A screen's question as the route reads it: the market, the kernel's query, the rows' columns and the page asked for. */
export interface ScreenAsk {
  full: MarketData;
  q: ScreenQuery;
  set: ColumnSet;
  limit: number;
  offset: number;
  sort: string;
  order: 'asc' | 'desc';
}

/**
 * The screen `query` (parsed as `p`) asks of `marketText` under `plan`: bounds checked (a
 * column off the whitelist, or min above max, is a 400), `limit` clamped to the plan's rows per call.
 */
export function screenAsk(
  dataset: Dataset,
  marketText: string,
  query: ReadonlyMap<string, string>,
  p: ScreenParams,
  plan: Plan,
  sets: Memo<ColumnSet>,
): ScreenAsk {
  const full = marketOf(dataset, marketText);
  const bounds = boundsOf(query);
  const set = rowColumnSet(p.fields, bounds, p.sort, sets);
  const limit = clamp(p.limit, plan.rowsPerCall);
  const q = { bounds, sort: p.sort, descending: p.order === 'desc', offset: p.offset, limit };
  return { full, q, set, limit, offset: p.offset, sort: p.sort, order: p.order };
}

/** The answer's page of `ask` over `m` (the market's own table, or one as of a day). */
export const screenPage = (ask: ScreenAsk, m: SnapshotView, result: ScreenResult): ScreenPage => ({
  m,
  result,
  set: ask.set,
  limit: ask.limit,
  offset: ask.offset,
  sort: ask.sort,
  order: ask.order,
});

export const screenRoute = route({
  pattern: '/api/v1/:market/screen',
  operationId: 'screen',
  summary: 'Filter, sort and page the latest snapshots of one market',
  description:
    '`total` counts all matches. Nulls sort last in both orders; ties by symbol ascending. Rows carry symbol, name, date, close, change_percent, the valuation, size and momentum columns, and any bounded or sort column. While matches remain, `Link: <…>; rel="next"` names the next page.',
  tag: 'Screens',
  query: SCREEN_QUERY,
  patternQuery: BOUNDS,
  shape: screenShape,
  example: {
    market: 'ashare',
    total: 214,
    count: 1,
    limit: 1,
    offset: 0,
    sort: 'change_percent',
    order: 'desc',
    data: [
      {
        symbol: 'sh600000',
        name: 'Pudong Bank',
        date: '2025-06-30',
        close: 10.41,
        change_percent: 1.0679,
        pe_ratio: 5.62,
        pb_ratio: 0.48,
        total_market_cap: 3055.3,
        chg_20d: 4.2168,
      },
    ],
  },
  problems: [],
  auth: true,
  charges: true,
  cacheable: true,
  paged: true,
  mayAnswerLater: true,
  handle({ dataset, caches, params, query, plan, pool, signal }, p) {
    const ask = screenAsk(dataset, params[0], query, p, plan, caches.screenColumns);
    const { full, q } = ask;
    const answer = (m: SnapshotView, result: ScreenResult): Reply => ({
      shape: screenShape,
      result: screenPage(ask, m, result),
      rows: result.rows.length,
      page: { offset: p.offset, count: result.rows.length, total: result.total },
    });
    // The pool's workers hold the Dataset's own tables; an as-of table is screened here.
    const view = caches.asOf(full, p.as_of, pool);
    if (view instanceof Promise) return view.then((m) => answer(m, screen(m.snapshots, q)));
    if (view === full && pool !== null && full.snapshots.size >= pool.minScreenRows)
      return pool.kernels.screen(dataset, full.market, q, signal?.()).then((result) => answer(full, result));
    return answer(view, screen(view.snapshots, q));
  },
});
