// K-line rows as JSON text, written straight into bytes: a run of one symbol's rows (what the
// rendered-row cache keeps), and the rows of an answer written whole (a cross-section's page, a
// batch of a few days), each adjusted as the K-line query's result says.

import { dateText } from '../../engine/calendar/date-text.js';
import { KLINE_FIELDS, type KlineField, PRICE_FIELDS } from '../../engine/columns.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import {
  type AdjustMode,
  adjustedPrice,
  type KlineResult,
  type KlineSlice,
  rowScale,
} from '../../engine/queries/klines.js';
import type { BodyPart } from './assemble.js';
import { ByteWriter } from './byte-writer.js';

/** Bit f set when KLINE_FIELDS[f] is selected: names a field set (fields come in catalogue order, so the set names the list). */
export const fieldMask = (fields: readonly KlineField[]): number =>
  fields.reduce((mask, f) => mask | (1 << KLINE_FIELDS.indexOf(f)), 0);

/** The `fields` array of a response: symbol, date, the selected columns, adj_factor. */
export const fieldNames = (fields: readonly KlineField[]): string[] => ['symbol', 'date', ...fields, 'adj_factor'];

/** fieldNames as JSON for every field set, by field mask: written once, at load (64 sets). */
const FIELD_NAMES_JSON: readonly string[] = Array.from({ length: 1 << KLINE_FIELDS.length }, (_, mask) =>
  JSON.stringify(fieldNames(KLINE_FIELDS.filter((_f, k) => (mask & (1 << k)) !== 0))),
);

/** JSON of the `fields` array of a response (an answer's envelope writes it on every fresh answer). */
export const fieldNamesJson = (fields: readonly KlineField[]): string => FIELD_NAMES_JSON[fieldMask(fields)];

/**
 * Writes a slice's rows of symbol `code` as `,{row}` each (symbol, date, the slice's `fields`,
 * adj_factor; every column indexed 0 … count−1); returns where each row's comma starts in the
 * writer, and its end last.
 */
export function writeSlice(w: ByteWriter, code: string, fields: readonly KlineField[], slice: KlineSlice): Int32Array {
  const keys = fields.map((field) => `,"${field}":`);
  const columns = fields.map((field) => slice.values[field]!);
  const head = `,{"symbol":"${code}","date":"`; // codes are [A-Za-z0-9._-]: nothing to escape
  const { count, date, adjFactor } = slice;
  const starts = new Int32Array(count + 1);
  for (let r = 0; r < count; r++) {
    starts[r] = w.pos;
    w.ascii(head);
    w.ascii(dateText(date[r]));
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

/** How one answer writes single rows of many symbols: field keys and which fields adjust, worked out once. */
export class RowWriter {
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

  /** Row `row` of symbol `i` as `{…}`, its prices adjusted to row `base`'s factor (its window's). */
  write(w: ByteWriter, i: number, row: number, base: number): void {
    const k = this.m.klines;
    const { columns, keys, adjusted } = this;
    const scale = rowScale(this.m, row, this.adj, base);
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
      w.number(adjusted[f] ? adjustedPrice(value, scale) : value);
    }
    w.ascii(',"adj_factor":');
    w.number(k.adj_factor[row]);
    w.ascii('}');
  }
}

/** One writer for answers written whole (a page, a few days of a batch): its bytes are copied out per answer. */
const answerWriter = new ByteWriter(1 << 16);

/** Every row of every window of `r` (a cross-section's page), comma-separated, appended to `pieces` as one piece. */
export function writeRowsOf(r: KlineResult, pieces: BodyPart[]): void {
  if (r.count === 0) return;
  const w = answerWriter;
  w.pos = 0;
  const writer = new RowWriter(r.m, r.ask.adj, r.ask.fields);
  let first = true;
  for (const { i, from, to, base } of r.windows)
    for (let row = from; row < to; row++) {
      if (!first) w.ascii(',');
      first = false;
      writer.write(w, i, row, base);
    }
  pieces.push(w.take());
}

/** `"code":[rows],…` of every window of `r` (day rows, a few each: a batch of a few days), in one pass of one writer. */
export function writeWindowsOf(r: KlineResult, pieces: BodyPart[]): void {
  const w = answerWriter;
  w.pos = 0;
  const { m } = r;
  const writer = new RowWriter(m, r.ask.adj, r.ask.fields);
  for (let n = 0; n < r.windows.length; n++) {
    const { i, from, to, base } = r.windows[n];
    w.ascii(n > 0 ? ',"' : '"');
    w.ascii(m.symbols.codes[i]); // codes are [A-Za-z0-9._-]: nothing to escape
    w.ascii('":[');
    for (let row = from; row < to; row++) {
      if (row > from) w.ascii(',');
      writer.write(w, i, row, base);
    }
    w.ascii(']');
  }
  pieces.push(w.take());
}
