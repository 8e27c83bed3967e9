// Every response shape's compiled serialiser (fast-json-stringify) against JSON.stringify of the same value.

import { KLINE_FIELDS } from '../../engine/columns.js';
import { rowsOfDay } from '../../engine/queries/cross-section.js';
import { crossSectionShape } from '../../transport/shapes/cross-section.js';
import { dateText } from '../../engine/calendar/date-text.js';
import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { adjustmentEvents } from '../../engine/queries/actions.js';
import { queryCalendar } from '../../engine/queries/calendar.js';
import { queryMacro } from '../../engine/queries/macro.js';
import { macroIndicators } from '../../engine/queries/macro-indicators.js';
import { marketsOverview } from '../../engine/queries/markets-overview.js';
import { klinePage } from '../../engine/queries/klines.js';
import { screen } from '../../engine/queries/screen.js';
import { searchSymbols } from '../../engine/queries/symbol-search.js';
import { actionsShape } from '../../transport/shapes/actions.js';
import { calendarShape } from '../../transport/shapes/calendar.js';
import { fieldNames } from '../../transport/serialise/kline-json.js';
import { macroIndicatorsShape } from '../../transport/shapes/macro-indicators.js';
import { serialisers } from '../../transport/serialise/compile.js';
import { klineRows, snapshotRow } from '../../transport/serialise/rows.js';
import type { SchemaName as ShapeName } from '../../transport/schemas/responses.js';
import { bodyText, type MicroCase, thousands, windowSlice } from './case.js';
import { DETAIL_BATCH } from './detail.js';
import { SCREEN_QUERY, SEARCH_TEXT } from './inputs.js';
import { pickDistinct } from './seeded.js';

/** Columns of a screen row by default (the route's rule: identity, close, change, valuation, size, momentum) plus bounded and sort columns. */
function screenColumns(): string[] {
  const wanted = new Set([
    'symbol',
    'name',
    'date',
    'close',
    'change_percent',
    ...SCREEN_QUERY.bounds.keys(),
    SCREEN_QUERY.sort,
  ]);
  return SNAPSHOT_COLUMNS.filter(
    (c) => wanted.has(c.name) || ['valuation', 'size', 'momentum'].includes(c.category),
  ).map((c) => c.name);
}

/**
 * One typical value per shape, built from the Dataset the way its route builds it. Typed as
 * a record of every shape: a new shape does not compile until it has a bench value here.
 */
function values(dataset: Dataset): Record<ShapeName, unknown> {
  const a = dataset.markets.ashare;
  const picks = pickDistinct(a.symbols.size, DETAIL_BATCH);
  const allColumns = SNAPSHOT_COLUMNS.map((c) => c.name);
  const kq = { start: null, end: null, offset: 0, limit: 100 };
  const dayRows = rowsOfDay(a, a.lastDate ?? 0);
  const k = windowSlice(a, picks[0], { window: kq, adj: 'bfq', period: 'day', fields: [...KLINE_FIELDS] });
  const day = a.lastDate ?? 0;
  const batchFields = ['close', 'volume'] as const;
  const batchData = Object.fromEntries(
    picks.map((i) => [
      a.symbols.codes[i],
      klineRows(
        windowSlice(a, i, {
          window: { start: day, end: day, offset: 0, limit: 100 },
          adj: 'bfq',
          period: 'day',
          fields: batchFields,
        }),
        a.symbols.codes[i],
        batchFields,
      ),
    ]),
  );
  const search = searchSymbols(a.symbols, SEARCH_TEXT, 0, 50);
  const scr = screen(a.snapshots, SCREEN_QUERY);
  const cols = screenColumns();
  const macro = queryMacro(dataset.macro, {
    indicator: null,
    startYear: null,
    endYear: null,
    offset: 0,
    limit: 100,
  }).rows.map((r) => ({ indicator: r.indicator, date: dateText(r.date), data: r.data }));
  const days = queryCalendar(a, { start: null, end: null, offset: 0, limit: 100 });
  return {
    problem: {
      type: 'about:blank',
      title: 'Bad parameter',
      status: 400,
      code: 'bad_param',
      detail: "limit must be a whole number, got '1e3'",
      param: 'limit',
    },
    health: { status: 'ok', data_version: dataset.version },
    markets: {
      count: 6,
      data: marketsOverview(dataset).map((m) => ({
        market: m.market,
        symbols: m.symbols,
        rows: m.rows,
        start_date: m.startDate === null ? null : dateText(m.startDate),
        end_date: m.endDate === null ? null : dateText(m.endDate),
      })),
    },
    symbols: {
      market: 'ashare',
      total: search.total,
      count: search.indices.length,
      limit: 50,
      offset: 0,
      data: search.indices.map((i) => ({ symbol: a.symbols.codes[i], name: a.symbols.name(i) })),
    },
    calendar: calendarShape.value({ market: 'ashare', ...days, limit: 100, offset: 0 }),
    actions: actionsShape.value({ m: a, i: picks[0], rows: adjustmentEvents(a.klines, picks[0], null, null) }),
    klines: {
      market: 'ashare',
      symbol: a.symbols.codes[picks[0]],
      count: k.count,
      total: k.total,
      offset: 0,
      limit: 100,
      fields: fieldNames(['open', 'high', 'low', 'close', 'volume', 'amount']),
      data: klineRows(k, a.symbols.codes[picks[0]], ['open', 'high', 'low', 'close', 'volume', 'amount']),
    },
    klinesBatch: {
      market: 'ashare',
      count: picks.length,
      limit: 100,
      offset: 0,
      fields: fieldNames([...batchFields]),
      data: batchData,
    },
    crossSection: crossSectionShape.value(
      klinePage(
        a,
        day,
        { symbols: dayRows.symbols.subarray(0, 100), rows: dayRows.rows.subarray(0, 100) },
        dayRows.rows.length,
        {
          window: { start: day, end: day, offset: 0, limit: 100 },
          adj: 'bfq',
          period: 'day',
          fields: [...KLINE_FIELDS],
        },
      ),
    ),
    detail: {
      market: 'ashare',
      symbol: a.symbols.codes[picks[0]],
      count: 1,
      data: snapshotRow(a, picks[0], allColumns),
    },
    detailBatch: {
      market: 'ashare',
      count: picks.length,
      data: Object.fromEntries(picks.map((i) => [a.symbols.codes[i], snapshotRow(a, i, allColumns)])),
    },
    screen: {
      market: 'ashare',
      total: scr.total,
      count: scr.rows.length,
      limit: 50,
      offset: 0,
      sort: SCREEN_QUERY.sort,
      order: 'desc',
      data: Array.from(scr.rows, (i) => snapshotRow(a, i, cols)),
    },
    macro: { count: macro.length, total: dataset.macro.length, limit: 100, offset: 0, data: macro },
    macroIndicators: macroIndicatorsShape.value(macroIndicators(dataset.macro)),
    quota: {
      plan: 'internal',
      org_name: 'bench',
      daily_quota: null,
      used: 123_456,
      remaining: null,
      requests_today: 789,
      reset_at: '2026-10-31T00:00:00.000Z',
    },
  };
}

export function serialiserCases(dataset: Dataset): MicroCase[] {
  return Object.entries(values(dataset)).map(([shape, value]) => {
    const compiled = serialisers[shape as ShapeName];
    return {
      group: 'serialise',
      name: shape,
      detail: `${thousands(Buffer.byteLength(JSON.stringify(value)))} B`,
      variants: [
        { name: 'fast-json-stringify (compiled)', run: () => compiled(value) },
        { name: 'JSON.stringify', run: () => JSON.stringify(value) },
      ],
      baseline: 'JSON.stringify',
      answer: bodyText,
    };
  });
}
