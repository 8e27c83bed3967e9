// The queries desks ask beyond one window of rows: monthly bars of a whole history, a market on
// one day, and symbols typed as aliases, each against the naive way of answering it.

import { KLINE_FIELDS } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { lowerBound } from '../../engine/kernels/date-range.js';
import { type DayRows, rowsOfDay } from '../../engine/queries/cross-section.js';
import { type KlineAsk, klinePage, klineQuery, sliceOf } from '../../engine/queries/klines.js';
import { KlineTextCache } from '../../transport/caches/kline-text.js';
import { assemble, type BodyPart } from '../../transport/serialise/assemble.js';
import { writeRowsOf } from '../../transport/serialise/kline-json.js';
import { klineRows } from '../../transport/serialise/rows.js';
import { bodyText, keptFor, type MicroCase, thousands } from './case.js';
import { symbolWithRows } from './klines.js';
import { pickDistinct, prng } from './seeded.js';

const FIELDS = [...KLINE_FIELDS];
const WHOLE = { start: null, end: null, offset: 0, limit: 1_000_000 };
/** A cross-section page as the bench's HTTP case asks it. */
const PAGE = 500;

/** Monthly qfq bars of a whole ashare history: the route's kept series (hot, and made cold), against row objects + JSON.stringify. */
function monthlyBars(dataset: Dataset, m: MarketData): MicroCase {
  const i = symbolWithRows(m, 2_500);
  const code = m.symbols.codes[i];
  const days = m.klines.offsets[i + 1] - m.klines.offsets[i];
  const ask: KlineAsk = { window: WHOLE, adj: 'qfq', period: 'month', fields: FIELDS };
  const bars = klineQuery(m, i, ask).count;
  const kept = keptFor(dataset);
  /** The bars (kept in `bars` when given) and their rows' text from `cache`. */
  const series = (cache: KlineTextCache, bars: typeof kept.bars | null): Buffer => {
    const parts: BodyPart[] = [];
    const r = klineQuery(m, i, ask, { bars });
    cache.rows(r, r.windows[0], parts);
    return assemble(parts);
  };
  return {
    group: 'query surface',
    name: `${m.market} monthly bars, whole history`,
    detail: `${code}: ${thousands(days)} days → ${thousands(bars)} bars, qfq`,
    variants: [
      { name: 'kept bars and rendered series (hot)', run: () => series(kept.klineRows, kept.bars) },
      { name: 'bars kernel + render series (cold)', run: () => series(new KlineTextCache(64 << 20), null) },
      {
        name: 'bars kernel + row objects + JSON.stringify',
        run: () => {
          const r = klineQuery(m, i, ask);
          return JSON.stringify(klineRows(sliceOf(r, r.windows[0]), code, FIELDS)).slice(1, -1);
        },
      },
    ],
    baseline: 'bars kernel + row objects + JSON.stringify',
    answer: bodyText,
  };
}

/** The day's rows by a binary search of each symbol's whole history (~12 probes a symbol): what finding them by the calendar saves. */
function searchDay(m: MarketData, day: number): DayRows {
  const symbols: number[] = [];
  const rows: number[] = [];
  const k = m.klines;
  for (let i = 0; i < m.symbols.size; i++) {
    const row = lowerBound(k.date, k.offsets[i], k.offsets[i + 1], day);
    if (row < k.offsets[i + 1] && k.date[row] === day) symbols.push(i), rows.push(row);
  }
  return { symbols: Int32Array.from(symbols), rows: Int32Array.from(rows) };
}

/** The day's rows by scanning every row of the market: what a search per symbol saves. */
function scanDay(m: MarketData, day: number): DayRows {
  const symbols: number[] = [];
  const rows: number[] = [];
  const k = m.klines;
  for (let i = 0; i < m.symbols.size; i++)
    for (let r = k.offsets[i]; r < k.offsets[i + 1]; r++) if (k.date[r] === day) symbols.push(i), rows.push(r);
  return { symbols: Int32Array.from(symbols), rows: Int32Array.from(rows) };
}

/** The first page of ashare's cross-section on its latest day, qfq, every field. */
function crossSectionPage(dataset: Dataset, m: MarketData): MicroCase {
  const day = m.lastDate ?? 0;
  const ask: KlineAsk = {
    window: { start: day, end: day, offset: 0, limit: PAGE },
    adj: 'qfq',
    period: 'day',
    fields: FIELDS,
  };
  const days = keptFor(dataset).dayRows;
  const page = (find: (m: MarketData, day: number) => DayRows) => () => {
    const all = find(m, day);
    const parts: BodyPart[] = [];
    const r = klinePage(
      m,
      day,
      { symbols: all.symbols.subarray(0, PAGE), rows: all.rows.subarray(0, PAGE) },
      all.rows.length,
      ask,
    );
    writeRowsOf(r, parts);
    return assemble(parts);
  };
  return {
    group: 'query surface',
    name: `${m.market} cross-section page of ${PAGE}`,
    detail: `${thousands(rowsOfDay(m, day).rows.length)} symbols with a row on the day, ${thousands(m.klines.date.length)} rows in the market`,
    variants: [
      { name: "each symbol's row by the calendar + render", run: page(rowsOfDay) },
      { name: 'binary search per symbol + render', run: page(searchDay) },
      { name: "the day's rows kept (a later page) + render", run: page((m, day) => days.of(m, day)) },
      { name: 'scan every row + render', run: page(scanDay) },
    ],
    baseline: 'scan every row + render',
    answer: bodyText,
  };
}

/** 1,000 ashare symbols looked up by canonical code, by `600000.SH` and by the bare number. */
function aliasLookups(m: MarketData): MicroCase {
  const picks = pickDistinct(m.symbols.size, 1_000, prng());
  const codes = picks.map((i) => m.symbols.codes[i]);
  const suffixed = codes.map((c) => `${c.slice(2)}.${c.slice(0, 2).toUpperCase()}`);
  const bare = codes.map((c) => c.slice(2));
  const lookUp = (texts: string[]) => () => texts.map((t) => m.symbols.find(t));
  // what find does with a form the first time it sees it (each later ask is one lookup of what it made of it)
  const firstAsk = (texts: string[]) => () =>
    texts.map((t) => {
      const all = m.symbols.matches(t);
      return all.length === 1 ? all[0] : -1;
    });
  return {
    group: 'query surface',
    name: `${m.market} symbol lookups ×${thousands(codes.length)}`,
    detail: `e.g. ${codes[0]}, ${suffixed[0]}, ${bare[0]}`,
    variants: [
      { name: 'canonical code', run: lookUp(codes) },
      { name: 'alias 600000.SH, asked before', run: lookUp(suffixed) },
      { name: 'bare number, asked before', run: lookUp(bare) },
      { name: 'alias 600000.SH, first ask', run: firstAsk(suffixed) },
    ],
    baseline: 'canonical code',
    answer: (out) => out,
  };
}

/** The query-surface cases on ashare (none when it has no symbols). */
export function querySurfaceCases(dataset: Dataset): MicroCase[] {
  const m = dataset.markets.ashare;
  if (m.symbols.size === 0) return [];
  return [monthlyBars(dataset, m), crossSectionPage(dataset, m), aliasLookups(m)];
}
