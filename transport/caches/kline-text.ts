// K-line rows as JSON bytes, rendered once (per chunk of rows, period series, a day's row of a batch) and kept: the rows never change.

import { dateText } from '../../engine/calendar/date-text.js';
import { KLINE_FIELDS, type KlineField, PRICE_FIELDS } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { type Market, MARKETS } from '../../engine/markets.js';
import { adjustPrices, type AdjustMode } from '../../engine/kernels/adjust.js';
import { round4 } from '../../engine/kernels/round.js';
import type { Period } from '../../engine/kernels/periods.js';
import { periodSlice } from '../../engine/queries/klines.js';
import { ByteWriter } from '../serialise/byte-writer.js';

/**
 * Rows per cached chunk. Chunks are counted back from a symbol's latest row, because most
 * windows end there: the latest 100 rows are one chunk.
 */
const CHUNK = 256;
/** At most this many rows of a chunk not kept yet are rendered for the answer alone (a day or a few of a symbol). */
const FEW_ROWS = 4;

/** Rows [from, to) of symbol `i` (absolute positions in the market's columns): one symbol's part of a batch. */
export interface SymbolRows {
  i: number;
  from: number;
  to: number;
}

/** What the cache keeps: chunks of rows, period series and days' batch rows. */
interface Kept {
  /** Read since the eviction hand last passed (second-chance LRU: no Map reshuffle per hit). */
  used: boolean;
  /** Bytes it counts against the budget. */
  cost: number;
}

interface Chunk extends Kept {
  /** `,{row},{row}…`: every row with a leading comma, as UTF-8 (all ASCII). */
  bytes: Buffer;
  /** starts[k] = offset of row k's comma; starts[n] = bytes.length. */
  starts: Int32Array;
}

/**
 * One day's row of each symbol a batch has asked for on that day, as `"code":[{row}]` text
 * (one field set and adjustment): batches of that day repeat symbols, so each row is written
 * once, and a batch of 50 symbols costs 50 reads and a join rather than 50 rows written.
 */
interface DaySegments extends Kept {
  /** By symbol position; undefined until asked (symbols without a row that day are never kept). */
  segments: (string | undefined)[];
}

/**
 * Resident bytes a kept chunk holds beside its row bytes and offsets: the chunk object and its
 * Map slot, and two typed arrays with their ArrayBuffers and native backing stores (~1,000
 * bytes each with V8's heap room, as measured for the response cache's Buffers).
 */
const CHUNK_OVERHEAD_BYTES = 2500;
/** What chunk `c` (and the dates of a series) counts against the budget. */
const costOf = (c: Pick<Chunk, 'bytes' | 'starts'>, dates?: Int32Array): number =>
  c.bytes.length + c.starts.byteLength + (dates?.byteLength ?? 0) + CHUNK_OVERHEAD_BYTES;
/** A kept string's bytes beyond its text: V8's header, rounded up to its 8-byte heap slots. */
const STRING_OVERHEAD_BYTES = 24;

const ADJ_INDEX: Record<AdjustMode, number> = { bfq: 0, qfq: 1, hfq: 2 };
const MARKET_INDEX = new Map(MARKETS.map((m, i) => [m, i]));

/** A number naming (market, symbol, chunk, adjustment, field set): cheaper than a string key per lookup. */
const chunkKey = (market: Market, i: number, c: number, adj: AdjustMode, mask: number): number =>
  (((MARKET_INDEX.get(market)! * 1048576 + i) * 65536 + c) * 4 + ADJ_INDEX[adj]) * 64 + mask;
/** A negative number naming (market, day, adjustment, field set): a day's segments (days within ±179 years of 1970). */
const dayKey = (market: Market, day: number, adj: AdjustMode, mask: number): number =>
  -(((MARKET_INDEX.get(market)! * 131072 + day + 65536) * 4 + ADJ_INDEX[adj]) * 64 + mask + 1);

/**
 * An LRU of rendered rows for one Dataset: chunks and period series keyed by market, symbol,
 * chunk (or series), adjustment and field set, days' batch rows by market, day, adjustment and
 * field set (negative keys), bounded by the bytes it holds. A Dataset is immutable, so nothing
 * kept goes stale; a reload brings a new Dataset and with it a new cache.
 */
export class KlineTextCache {
  private readonly chunks = new Map<number, Kept>();
  private size = 0;
  private readonly writer = new ByteWriter(CHUNK * 200);

  constructor(private readonly budgetBytes: number) {}

  /** Bytes counted against the budget. */
  get bytes(): number {
    return this.size;
  }

  /**
   * JSON of rows [from, to) (absolute positions within symbol `i`), comma-separated, as
   * byte views: `pieces` receives one view per chunk touched (usually one). The views share
   * the cache's memory and stay valid as long as the caller holds them (eviction only
   * drops the cache's reference).
   */
  rows(
    m: MarketData,
    i: number,
    adj: AdjustMode,
    fields: readonly KlineField[],
    mask: number,
    from: number,
    to: number,
    pieces: (string | Buffer)[],
    baseRow = m.klines.offsets[i + 1] - 1,
  ): void {
    if (to <= from) return;
    const end = m.klines.offsets[i + 1]; // chunk c holds rows [end − (c+1)·CHUNK, end − c·CHUNK)
    if (adj === 'qfq' && baseRow !== end - 1) {
      // qfq to a chosen day (qfq_base): rendered for this answer, not kept (the base multiplies the keys).
      renderRows(this.writer, m, i, from, to, adj, fields, baseRow);
      pieces.push(this.writer.take().subarray(1));
      return;
    }
    const firstChunk = Math.floor((end - from - 1) / CHUNK);
    if (to - from <= FEW_ROWS && firstChunk === Math.floor((end - to) / CHUNK)) {
      // A few rows of one chunk (one day of a batch, a cross-section): rendered alone, unless
      // their chunk is kept already. Rendering 256 rows to answer one costs 100× and evicts others.
      if (!this.chunks.has(chunkKey(m.market, i, firstChunk, adj, mask))) {
        renderRows(this.writer, m, i, from, to, adj, fields, baseRow);
        pieces.push(this.writer.take().subarray(1));
        return;
      }
    }
    let first = true;
    for (let c = firstChunk; c >= 0 && end - (c + 1) * CHUNK < to; c--) {
      const chunk = this.chunk(m, i, c, adj, fields, mask);
      const base = end - c * CHUNK - (chunk.starts.length - 1); // the chunk's first row
      const a = Math.max(from, base) - base;
      const b = Math.min(to, end - c * CHUNK) - base;
      pieces.push(chunk.bytes.subarray(chunk.starts[a] + (first ? 1 : 0), chunk.starts[b])); // no comma before the first row
      first = false;
    }
  }

  /**
   * Every bar of symbol `i`'s `period` series (all its history, adjusted, the fields of `mask`)
   * as `,{row}` text with where each starts, and the bars' dates to window them by: built once
   * and kept like a chunk, so each window of the series is a view of it.
   */
  series(
    m: MarketData,
    i: number,
    period: Exclude<Period, 'day'>,
    adj: AdjustMode,
    fields: readonly KlineField[],
    mask: number,
  ): PeriodSeries {
    const key = chunkKey(m.market, i, SERIES_SLOT + PERIOD_INDEX[period], adj, mask);
    return this.kept(key, () => renderSeries(this.writer, m, i, period, adj, fields));
  }

  private chunk(
    m: MarketData,
    i: number,
    c: number,
    adj: AdjustMode,
    fields: readonly KlineField[],
    mask: number,
  ): Chunk {
    return this.kept(chunkKey(m.market, i, c, adj, mask), () => renderChunk(this.writer, m, i, c, adj, fields));
  }

  /**
   * `"code":[…]` of each window (each a day's row or none, all of day `day`) joined by commas,
   * appended to `pieces` as one string: a symbol's row text is written on the day's first ask
   * of it and kept with the day's others.
   */
  daySegments(
    m: MarketData,
    day: number,
    windows: readonly SymbolRows[],
    adj: AdjustMode,
    fields: readonly KlineField[],
    mask: number,
    pieces: (string | Buffer)[],
  ): void {
    const n = m.symbols.size;
    const key = dayKey(m.market, day, adj, mask);
    let kept: DaySegments | null = null; // none for a batch without a row (a holiday): nothing to keep
    const texts: string[] = new Array(windows.length);
    let writer: RowWriter | null = null;
    let grown = 0;
    for (let k = 0; k < windows.length; k++) {
      const { i, from, to } = windows[k];
      if (to === from) {
        texts[k] = `"${m.symbols.codes[i]}":[]`;
        continue;
      }
      kept ??= this.kept(
        key,
        (): DaySegments => ({
          segments: new Array(n).fill(undefined),
          used: false,
          cost: n * 8 + CHUNK_OVERHEAD_BYTES,
        }),
      );
      let segment = kept.segments[i];
      if (segment === undefined) {
        const w = this.writer;
        w.ascii(`"${m.symbols.codes[i]}":[`); // codes are [A-Za-z0-9._-]: nothing to escape
        (writer ??= new RowWriter(m, adj, fields)).write(w, i, from);
        w.ascii(']');
        const written = w.takeText(); // emptied: the chunks write with it too, from its start
        kept.segments[i] = segment = written;
        grown += written.length + STRING_OVERHEAD_BYTES;
      }
      texts[k] = segment;
    }
    pieces.push(texts.join(',')); // one flat string: no tree of concatenations to flatten when written
    if (kept !== null && grown > 0) this.grew(kept, grown);
  }

  /** The entry kept under `key`, or `make`'s, kept from now on (the oldest unread ones leave to stay in budget). */
  private kept<T extends Kept>(key: number, make: () => T): T {
    const hit = this.chunks.get(key);
    if (hit !== undefined) {
      hit.used = true;
      return hit as T;
    }
    const made = make();
    this.chunks.set(key, made);
    this.size += made.cost;
    this.evictFor(made);
    return made;
  }

  /** Counts `bytes` more for `entry` (a day's segments, grown), making room if the budget is passed. */
  private grew(entry: Kept, bytes: number): void {
    entry.cost += bytes;
    this.size += bytes;
    this.evictFor(entry);
  }

  /** Evicts from the oldest end until within budget, sparing `kept`; an entry read since it was last passed gets a second chance. */
  private evictFor(kept: Kept): void {
    // Passed over, not stopped at: the entries read since the hand last passed go behind it, and
    // a day's entry read for weeks drifts to the oldest end; either way those after it must go.
    for (const [oldKey, old] of this.chunks) {
      if (this.size <= this.budgetBytes) break;
      if (old === kept) continue;
      this.chunks.delete(oldKey);
      if (old.used) {
        old.used = false;
        this.chunks.set(oldKey, old);
      } else {
        this.size -= old.cost;
      }
    }
  }
}

/** A symbol's period bars, rendered: the text and offsets of a chunk, and each bar's date. */
export interface PeriodSeries extends Chunk {
  dates: Int32Array;
}

/** Chunk numbers from here on name period series (a symbol never has 60,000 chunks of 256 rows). */
const SERIES_SLOT = 60_000;
const PERIOD_INDEX: Record<Exclude<Period, 'day'>, number> = { week: 0, month: 1, quarter: 2, year: 3 };
const WHOLE_HISTORY = { start: null, end: null, offset: 0, limit: Number.MAX_SAFE_INTEGER };

/** Renders every bar of symbol `i`'s `period` series, as renderRows writes rows. */
function renderSeries(
  w: ByteWriter,
  m: MarketData,
  i: number,
  period: Exclude<Period, 'day'>,
  adj: AdjustMode,
  fields: readonly KlineField[],
): PeriodSeries {
  const bars = periodSlice(m, i, WHOLE_HISTORY, period, adj, fields);
  const columns = fields.map((field) => bars.values[field]!);
  w.pos = 0;
  const starts = writeRows(w, m.symbols.codes[i], fields, bars.count, bars.date, bars.adjFactor, columns);
  const [bytes, dates] = [w.takeOwn(), bars.date.slice()];
  return { bytes, starts, dates, used: false, cost: costOf({ bytes, starts }, dates) };
}

/** JSON of bars [from, to) of a series (`{row},{row}…`) appended to `pieces` as a view of the kept text. */
export function seriesRows(series: PeriodSeries, from: number, to: number, pieces: (string | Buffer)[]): void {
  if (to > from) pieces.push(series.bytes.subarray(series.starts[from] + 1, series.starts[to]));
}

/** The `period` series of symbol `i` from the Dataset's rendered-row cache (made on first use). */
export function periodSeries(
  dataset: Dataset,
  m: MarketData,
  i: number,
  period: Exclude<Period, 'day'>,
  adj: AdjustMode,
  fields: readonly KlineField[],
): PeriodSeries {
  return klineTextCacheOf(dataset, budgetBytes).series(m, i, period, adj, fields, fieldMask(fields));
}

/** Renders chunk `c` of symbol `i`: its rows as renderRows writes them, qfq to the latest day. */
function renderChunk(
  w: ByteWriter,
  m: MarketData,
  i: number,
  c: number,
  adj: AdjustMode,
  fields: readonly KlineField[],
): Chunk {
  const last = m.klines.offsets[i + 1] - 1;
  const to = last + 1 - c * CHUNK;
  const starts = renderRows(w, m, i, Math.max(m.klines.offsets[i], to - CHUNK), to, adj, fields, last);
  const bytes = w.takeOwn();
  return { bytes, starts, used: false, cost: costOf({ bytes, starts }) };
}

/**
 * Writes rows [from, to) of symbol `i` as `,{row}` each (symbol, date, fields with prices
 * adjusted, qfq by `baseRow`'s factor, adj_factor); returns where each row's comma starts
 * in the writer, and its end last.
 */
function renderRows(
  w: ByteWriter,
  m: MarketData,
  i: number,
  from: number,
  to: number,
  adj: AdjustMode,
  fields: readonly KlineField[],
  baseRow: number,
): Int32Array {
  const k = m.klines;
  const columns = fields.map((field) =>
    adj !== 'bfq' && PRICE_FIELDS.has(field)
      ? adjustPrices(k[field], k.adj_factor, from, to, adj, baseRow, new Float64Array(to - from))
      : k[field].subarray(from, to),
  );
  return writeRows(
    w,
    m.symbols.codes[i],
    fields,
    to - from,
    k.date.subarray(from, to),
    k.adj_factor.subarray(from, to),
    columns,
  );
}

/**
 * Writes `count` rows of one symbol as `,{row}` each (symbol, date, `columns` under `fields`' keys,
 * adj_factor; every array indexed 0 … count−1); returns where each row's comma starts, and its end last.
 */
function writeRows(
  w: ByteWriter,
  code: string,
  fields: readonly KlineField[],
  count: number,
  dates: Int32Array,
  adjFactor: Float64Array,
  columns: readonly Float64Array[],
): Int32Array {
  const keys = fields.map((field) => `,"${field}":`);
  const head = `,{"symbol":"${code}","date":"`; // codes are [A-Za-z0-9._-]: nothing to escape
  const starts = new Int32Array(count + 1);
  for (let r = 0; r < count; r++) {
    starts[r] = w.pos;
    w.ascii(head);
    w.ascii(dateText(dates[r]));
    w.ascii('"');
    for (let f = 0; f < columns.length; f++) {
      w.ascii(keys[f]);
      w.number(columns[f][r]);
    }
    w.ascii(',"adj_factor":');
    w.number(adjFactor[r]);
    w.ascii('}');
  }
  starts[count] = w.pos;
  return starts;
}

const caches = new WeakMap<object, KlineTextCache>();

/** The cache of `dataset` (created on first use); dropped with the Dataset after a reload. */
export function klineTextCacheOf(dataset: object, budgetBytes: number): KlineTextCache {
  let cache = caches.get(dataset);
  if (cache === undefined) caches.set(dataset, (cache = new KlineTextCache(budgetBytes)));
  return cache;
}

/** MB of rendered K-line rows kept per Dataset unless the composition root says otherwise (KLINE_TEXT_CACHE_MB). */
export const DEFAULT_KLINE_TEXT_CACHE_MB = 256;
let budgetBytes = DEFAULT_KLINE_TEXT_CACHE_MB * 1024 * 1024;

/** Sets the budget of the caches made from now on: once at start, from KLINE_TEXT_CACHE_MB (never read at import). */
export function setKlineTextBudget(bytes: number): void {
  budgetBytes = bytes;
}

/** Bit f set when KLINE_FIELDS[f] is selected: names a field set in cache keys. */
export const fieldMask = (fields: readonly KlineField[]): number =>
  fields.reduce((mask, f) => mask | (1 << KLINE_FIELDS.indexOf(f)), 0);

/**
 * JSON rows [from, to) of symbol `i` (`{row},{row}…`, ascending) appended to `pieces` as
 * byte views of the Dataset's rendered-row cache (qfq to `baseRow` other than the latest: rendered anew).
 */
export function renderKlineRows(
  dataset: Dataset,
  m: MarketData,
  i: number,
  adj: AdjustMode,
  fields: readonly KlineField[],
  from: number,
  to: number,
  pieces: (string | Buffer)[],
  baseRow?: number,
): void {
  klineTextCacheOf(dataset, budgetBytes).rows(m, i, adj, fields, fieldMask(fields), from, to, pieces, baseRow);
}

/**
 * `"code":[rows]` of each window, all of day `day` (at most its row each), joined by commas and
 * appended to `pieces`: each symbol's row of the day written once and kept in the Dataset's
 * rendered-row cache, as its chunks are.
 */
export function renderDayOf(
  dataset: Dataset,
  m: MarketData,
  day: number,
  windows: readonly SymbolRows[],
  adj: AdjustMode,
  fields: readonly KlineField[],
  pieces: (string | Buffer)[],
): void {
  klineTextCacheOf(dataset, budgetBytes).daySegments(m, day, windows, adj, fields, fieldMask(fields), pieces);
}

/** One writer for answers rendered whole (bars, cross-sections): its bytes are copied out per answer. */
const answerWriter = new ByteWriter(1 << 16);

/** How one answer writes rows of many symbols: field keys and which fields adjust, worked out once. */
class RowWriter {
  private readonly keys: string[];
  private readonly adjusted: boolean[];
  /** The fields' columns, looked up once (a column by its name per row is a slow property read). */
  private readonly columns: Float64Array[];
  /** The last date written and its text: a cross-section's rows all share one day. */
  private day = Number.NaN;
  private dayText = '';

  constructor(
    private readonly m: MarketData,
    private readonly adj: AdjustMode,
    fields: readonly KlineField[],
  ) {
    this.keys = fields.map((field) => `,"${field}":`);
    this.adjusted = fields.map((field) => adj !== 'bfq' && PRICE_FIELDS.has(field));
    this.columns = fields.map((field) => m.klines[field]);
  }

  /** Row `row` of symbol `i` as `{…}`, adjusted as the symbol's own K-lines are (qfq to its latest factor). */
  write(w: ByteWriter, i: number, row: number): void {
    const k = this.m.klines;
    const { adj, columns, keys, adjusted } = this;
    const scale = adj === 'bfq' ? 1 : k.adj_factor[row] / (adj === 'qfq' ? k.adj_factor[k.offsets[i + 1] - 1] : 1);
    const day = k.date[row];
    if (day !== this.day) (this.day = day), (this.dayText = dateText(day));
    w.ascii('{"symbol":"');
    w.ascii(this.m.symbols.codes[i]);
    w.ascii('","date":"');
    w.ascii(this.dayText);
    w.ascii('"');
    for (let f = 0; f < columns.length; f++) {
      w.ascii(keys[f]);
      const value = columns[f][row];
      w.number(adjusted[f] ? round4(value * scale) : value);
    }
    w.ascii(',"adj_factor":');
    w.number(k.adj_factor[row]);
    w.ascii('}');
  }
}

/**
 * JSON rows of several symbols (`rows[n]` of symbol `symbols[n]`), each adjusted as its own
 * K-lines are (qfq to its latest factor), appended to `pieces` as one piece: a cross-section.
 */
export function renderRowsOf(
  m: MarketData,
  symbols: Int32Array,
  rows: Int32Array,
  adj: AdjustMode,
  fields: readonly KlineField[],
  pieces: (string | Buffer)[],
): void {
  if (rows.length === 0) return;
  const w = answerWriter;
  w.pos = 0;
  const writer = new RowWriter(m, adj, fields);
  for (let n = 0; n < rows.length; n++) {
    if (n > 0) w.ascii(',');
    writer.write(w, symbols[n], rows[n]);
  }
  pieces.push(w.take());
}

/** At most this many rows per symbol are written by renderWindowsOf rather than from the kept chunks. */
export const FEW_ROWS_EACH = FEW_ROWS;

/**
 * `"code":[rows],…` of several symbols' windows of at most FEW_ROWS_EACH rows (a batch of a
 * few days), in one pass of one writer: no chunk rendered or kept for a row or two of each symbol.
 */
export function renderWindowsOf(
  m: MarketData,
  windows: readonly SymbolRows[],
  adj: AdjustMode,
  fields: readonly KlineField[],
  pieces: (string | Buffer)[],
): void {
  const w = answerWriter;
  w.pos = 0;
  const writer = new RowWriter(m, adj, fields);
  for (let n = 0; n < windows.length; n++) {
    const { i, from, to } = windows[n];
    w.ascii(n > 0 ? ',"' : '"');
    w.ascii(m.symbols.codes[i]); // codes are [A-Za-z0-9._-]: nothing to escape
    w.ascii('":[');
    for (let row = from; row < to; row++) {
      if (row > from) w.ascii(',');
      writer.write(w, i, row);
    }
    w.ascii(']');
  }
  pieces.push(w.take());
}
