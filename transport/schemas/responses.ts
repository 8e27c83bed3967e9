// One JSON Schema per response shape: compiled into serialisers, published in the OpenAPI document.

import { KLINE_FIELDS, MACRO_INDICATORS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { MARKETS } from '../../engine/markets.js';
import { arrayOf, date, int, mapOf, nullableDate, nullableInt, nullableNum, nullableStr, num, object, type Schema, str } from './common.js';

const market: Schema = { type: 'string', enum: [...MARKETS] };

/** A K-line row: symbol, date, the selected fields (any subset, fixed order), adj_factor. */
export const klineRow = object(
  {
    symbol: str,
    date,
    ...Object.fromEntries(KLINE_FIELDS.map((f) => [f, nullableNum])),
    adj_factor: num,
  },
  [...KLINE_FIELDS],
);

/** A detail snapshot: symbol and date always, any other column when selected (spec table order). */
export const snapshotRow = object(
  Object.fromEntries(
    SNAPSHOT_COLUMNS.map((c) => [c.name, c.name === 'symbol' ? str : c.name === 'date' ? nullableDate : c.kind === 'string' ? nullableStr : nullableNum]),
  ),
  SNAPSHOT_COLUMNS.map((c) => c.name).filter((n) => n !== 'symbol' && n !== 'date'),
);

const klineFieldNames: Schema = arrayOf({ type: 'string', enum: ['symbol', 'date', ...KLINE_FIELDS, 'adj_factor'] });

export const SCHEMAS = {
  problem: object({ type: str, title: str, status: int, code: str, detail: str, param: str }, ['param'], 'RFC 9457 problem details'),
  health: object({ status: str, data_version: str }),
  markets: object({
    count: int,
    data: arrayOf(object({ market, symbols: int, rows: int, start_date: nullableDate, end_date: nullableDate })),
  }),
  symbols: object({ market, total: int, count: int, limit: int, offset: int, data: arrayOf(object({ symbol: str, name: nullableStr })) }),
  klines: object({ market, symbol: str, count: int, total: int, offset: int, limit: int, fields: klineFieldNames, data: arrayOf(klineRow) }),
  klinesBatch: object(
    { market, count: int, limit: int, offset: int, fields: klineFieldNames, data: mapOf(arrayOf(klineRow)), missing: arrayOf(str) },
    ['missing'],
  ),
  detail: object({ market, symbol: str, count: int, data: snapshotRow }),
  detailBatch: object({ market, count: int, data: mapOf(snapshotRow), missing: arrayOf(str) }, ['missing']),
  screen: object({
    market,
    total: int,
    count: int,
    limit: int,
    offset: int,
    sort: str,
    order: { type: 'string', enum: ['asc', 'desc'] },
    data: arrayOf(snapshotRow),
  }),
  macro: object({
    count: int,
    total: int,
    limit: int,
    offset: int,
    data: arrayOf(object({ indicator: { type: 'string', enum: [...MACRO_INDICATORS] }, date, data: mapOf(nullableNum) })),
  }),
  quota: object({
    plan: str,
    org_name: str,
    daily_quota: nullableInt,
    used: int,
    remaining: nullableInt,
    requests_today: int,
    reset_at: { type: 'string', format: 'date-time' },
  }),
} satisfies Record<string, Schema>;

export type ShapeName = keyof typeof SCHEMAS;
