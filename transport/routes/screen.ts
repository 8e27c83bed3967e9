// GET /{market}/screen: filter, sort and page the latest snapshots of one market.

import { NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { screen, type ScreenResult } from '../../engine/queries/screen.js';
import { badParam } from '../problem.js';
import { decimal, integer, list, oneOf, parseParams } from '../params/rules.js';
import type { Reply, Route } from '../route.js';
import type { BodyPart } from '../serialise/assemble.js';
import { snapshotTextCacheOf } from '../serialise/snapshot-text.js';
import { clamp, marketOf } from './lookup.js';

/** A byte copy is cheaper than encoding a one-character string fifty times a response. */
const COMMA = Buffer.from(',');
const WHITELIST: ReadonlySet<string> = new Set(NUMERIC_SNAPSHOT_COLUMNS);
const sortColumn = (raw: string | undefined, name: string): string => {
  if (raw === undefined) return 'change_percent';
  if (!WHITELIST.has(raw)) throw badParam(name, `cannot sort by '${raw}' (a numeric snapshot column)`);
  return raw;
};
const PARAMS = { sort: sortColumn, order: oneOf(['asc', 'desc'] as const, 'desc'), limit: integer(50, 1), offset: integer(0, 0), fields: list(false) };

/** Columns of a screen row by default: identity, close, change, valuation, size, momentum. */
const DEFAULT_COLUMNS = new Set(
  SNAPSHOT_COLUMNS.filter((c) => ['symbol', 'name', 'date', 'close', 'change_percent'].includes(c.name) || ['valuation', 'size', 'momentum'].includes(c.category)).map((c) => c.name),
);
const ALL_COLUMNS = SNAPSHOT_COLUMNS.map((c) => c.name);
const ROW_KEYS: ReadonlySet<string> = new Set(ALL_COLUMNS);

/** `min_<column>` / `max_<column>` parameters as inclusive bounds; a column off the whitelist is a 400. */
function boundsOf(query: ReadonlyMap<string, string>): Map<string, { min: number; max: number }> {
  const bounds = new Map<string, { min: number; max: number }>();
  for (const [name, raw] of query) {
    const side = name.startsWith('min_') ? 'min' : name.startsWith('max_') ? 'max' : null;
    if (side === null) continue;
    const column = name.slice(4);
    if (!WHITELIST.has(column)) throw badParam(name, `'${column}' is not a screenable column`);
    const bound = bounds.get(column) ?? { min: -Infinity, max: Infinity };
    bound[side] = decimal(raw, name);
    bounds.set(column, bound);
  }
  for (const [column, b] of bounds) if (b.min > b.max) throw badParam(`min_${column}`, `min_${column} is above max_${column}`);
  return bounds;
}

/** Column sets already worked out, by request shape: screens repeat a handful of shapes. */
const columnSets = new Map<string, { columns: string[]; key: string }>();

/** rowColumns, remembered per (fields, bounded columns, sort); the key names the set in the row cache. */
function rowColumnSet(fields: string[] | null, bounds: ReadonlyMap<string, unknown>, sort: string): { columns: string[]; key: string } {
  // Checked before the memo: a field may contain the shape's separators (`close|volume`).
  if (fields !== null) for (const f of fields) if (f !== '*' && !ROW_KEYS.has(f)) throw badParam('fields', `unknown column '${f}'`);
  let shape = fields === null ? '' : fields.join(',');
  for (const column of bounds.keys()) shape += '|' + column;
  shape += '>' + sort;
  let set = columnSets.get(shape);
  if (set === undefined) {
    const columns = rowColumns(fields, bounds, sort);
    set = { columns, key: columns.join(',') };
    if (columnSets.size >= 1000) columnSets.clear(); // bounded: shapes come from clients
    columnSets.set(shape, set);
  }
  return set;
}

/** The row's columns in table order: the requested ones (plus symbol, name, date) or the defaults, plus bounded and sort columns. */
function rowColumns(fields: string[] | null, bounds: ReadonlyMap<string, unknown>, sort: string): string[] {
  let wanted: Set<string>;
  if (fields === null) wanted = new Set(DEFAULT_COLUMNS);
  else {
    wanted = new Set(['symbol', 'name', 'date']);
    for (const f of fields) {
      if (f === '*') ALL_COLUMNS.forEach((c) => wanted.add(c));
      else wanted.add(f); // known: rowColumnSet checked it
    }
  }
  for (const column of bounds.keys()) wanted.add(column);
  wanted.add(sort);
  return ALL_COLUMNS.filter((c) => wanted.has(c));
}

export const screenRoute: Route = {
  pattern: '/api/v1/:market/screen',
  paramNames: ['market'],
  auth: true,
  charges: true,
  cacheable: true,
  mayAnswerLater: true,
  handle({ dataset, params, query, plan, pool, signal }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, PARAMS);
    const bounds = boundsOf(query);
    const { columns, key } = rowColumnSet(p.fields, bounds, p.sort);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const q = { bounds, sort: p.sort, descending: p.order === 'desc', offset: p.offset, limit };
    const answer = (result: ScreenResult): Reply => render(dataset, m, result, columns, key, limit, p.offset, p.sort, p.order);
    if (pool !== null && m.snapshots.size >= pool.minScreenRows) return pool.kernels.screen(dataset, m.market, q, signal?.()).then(answer);
    return answer(screen(m.snapshots, q));
  },
};

/** The screen's JSON: envelope and cached rendered rows. */
function render(dataset: Dataset, m: MarketData, result: ScreenResult, columns: string[], key: string, limit: number, offset: number, sort: string, order: string): Reply {
  const cache = snapshotTextCacheOf(dataset);
  const head = `{"market":"${m.market}","total":${result.total},"count":${result.rows.length},"limit":${limit},"offset":${offset},"sort":"${sort}","order":"${order}","data":[`;
  const body: BodyPart[] = [head];
  for (let n = 0; n < result.rows.length; n++) {
    if (n > 0) body.push(COMMA);
    body.push(cache.row(m, result.rows[n], columns, key));
  }
  body.push(']}');
  return { shape: 'screen', body, rows: result.rows.length };
}
