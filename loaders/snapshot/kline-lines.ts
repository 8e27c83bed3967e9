// K-line rows parsed straight from a file's bytes: cells found and numbers read without decoding
// a line into a string (a line that needs it, quoted or not ASCII, goes the string way).

import { INVALID_DATE, daysInMonth, daysFromCivil } from '../../engine/calendar/days.js';
import { KLINE_VALUE_COLUMNS, type KlineColumns } from '../../engine/dataset/kline-columns.js';
import { dateCell, numberCell } from './cells.js';
import { RepeatedDates } from './repeated-dates.js';
import { RowError } from './snapshot-error.js';
import { splitCells } from './split-cells.js';
import type { SymbolRegistry } from './symbol-registry.js';

const NEWLINE = 10;
const CR = 13;
const COMMA = 44;
const QUOTE = 34;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Where a K-line file keeps each column (from its header), and how many cells a row has. */
export interface KlineLayout {
  symbol: number;
  date: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number;
  /** -1 when the file has no adj_factor column (then every factor is 1). */
  adj: number;
  width: number;
}

/** K-line rows in the order read, each with its symbol's id in the registry. */
export interface KlineRows {
  symbolIds: Int32Array;
  columns: Omit<KlineColumns, 'offsets'>;
}

/** Columns for `capacity` rows (plain memory, or shared to cross a thread without a copy). */
export function allocateRows(capacity: number, shared: boolean): KlineRows {
  const buffer = (bytes: number): ArrayBuffer | SharedArrayBuffer =>
    shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  const columns = { date: new Int32Array(buffer(capacity * 4)) } as Omit<KlineColumns, 'offsets'>;
  for (const name of KLINE_VALUE_COLUMNS) columns[name] = new Float64Array(buffer(capacity * 8));
  return { symbolIds: new Int32Array(buffer(capacity * 4)), columns };
}

/** The first `n` rows of `rows` (views). */
export function firstRows(rows: KlineRows, n: number): KlineRows {
  const columns = { date: rows.columns.date.subarray(0, n) } as Omit<KlineColumns, 'offsets'>;
  for (const name of KLINE_VALUE_COLUMNS) columns[name] = rows.columns[name].subarray(0, n);
  return { symbolIds: rows.symbolIds.subarray(0, n), columns };
}

/**
 * Parses K-line lines into `rows` from position `count` on, checking every rule of the format
 * (widths, numbers, dates, high ≥ low, volume ≥ 0, adj_factor > 0, a symbol's date repeated).
 * A violation throws a RowError; `line` is then the physical line it is on (counted from
 * `line` as given, so a part of a file parses with its own numbering).
 */
export class KlineLineParser {
  /** The physical line being parsed (the next one once a line is done). */
  line: number;
  /** Rows parsed into `rows` so far. */
  count: number;
  private readonly repeats = new RepeatedDates();
  private readonly starts = new Int32Array(64);
  private readonly ends = new Int32Array(64);
  /** The last symbol met, as bytes, and its id: rows of one symbol come together. */
  private readonly lastSymbol = Buffer.alloc(32);
  private lastSymbolLength = -1;
  private lastId = -1;

  constructor(
    private readonly layout: KlineLayout,
    private readonly registry: SymbolRegistry,
    private readonly rows: KlineRows,
    private readonly maxLineBytes: number,
    firstLine: number,
    private readonly onRow: (count: number) => void = () => {},
  ) {
    this.line = firstLine;
    this.count = 0;
  }

  /** The symbols met, by the ids written in the rows. */
  get symbols(): string[] {
    return this.registry.symbols;
  }

  /** Parses every line of `buf[from, to)`, which holds whole lines (the last may lack its '\n' at the input's end). */
  parse(buf: Buffer, from: number, to: number): void {
    for (let start = from; start < to; ) {
      let end = buf.indexOf(NEWLINE, start);
      if (end < 0 || end >= to) end = to;
      this.parseLine(buf, start, end);
      start = end + 1;
    }
  }

  /** One line `buf[start, end)`, without its '\n'. */
  parseLine(buf: Buffer, start: number, end: number): void {
    let stop = end;
    if (stop > start && buf[stop - 1] === CR) stop--;
    if (stop === start) {
      this.line++; // a blank line
      return;
    }
    if (stop - start > this.maxLineBytes) throw new RowError(`line longer than ${this.maxLineBytes} bytes`);
    // Cells, and whether the line needs decoding (a quote, or a byte beyond ASCII).
    const { starts, ends, layout } = this;
    let cells = 0;
    let cellStart = start;
    for (let i = start; i < stop; i++) {
      const c = buf[i];
      if (c === COMMA) {
        if (cells < 64) (starts[cells] = cellStart), (ends[cells] = i);
        cells++;
        cellStart = i + 1;
      } else if (c === QUOTE || c >= 0x80) return this.parseText(buf.toString('utf8', start, end));
    }
    if (cells < 64) (starts[cells] = cellStart), (ends[cells] = stop);
    cells++;
    if (cells !== layout.width) throw new RowError(`${cells} cells where the header has ${layout.width}`);
    const id = this.symbolOf(buf, starts[layout.symbol], ends[layout.symbol]);
    let date = dateOf(buf, starts[layout.date], ends[layout.date]);
    if (date === INVALID_DATE) date = dateCell(buf.toString('latin1', starts[layout.date], ends[layout.date]), 'date');
    this.repeats.check(id, date, this.line, this.registry.symbols[id]);
    this.store(
      id,
      date,
      this.number(buf, layout.open, 'open'),
      this.number(buf, layout.high, 'high'),
      this.number(buf, layout.low, 'low'),
      this.number(buf, layout.close, 'close'),
      this.number(buf, layout.volume, 'volume'),
      this.number(buf, layout.amount, 'amount'),
      layout.adj < 0 ? NaN : this.number(buf, layout.adj, 'adj_factor'),
    );
  }

  /**
   * A line that needs decoding: exactly what the string reader (read-csv.ts) does with it, so
   * both ways accept and refuse the same lines with the same words.
   */
  private parseText(raw: string): void {
    const text = raw.charCodeAt(raw.length - 1) === CR ? raw.slice(0, -1) : raw;
    if (text.indexOf('\uFFFD') >= 0) throw new RowError('not UTF-8 text (or a U+FFFD replacement character)');
    if (text.length > this.maxLineBytes / 3 && Buffer.byteLength(text) > this.maxLineBytes)
      throw new RowError(`line longer than ${this.maxLineBytes} bytes`);
    const cells = splitCells(text);
    const { layout } = this;
    if (cells.length !== layout.width) throw new RowError(`${cells.length} cells where the header has ${layout.width}`);
    this.lastSymbolLength = -1;
    const id = this.registry.idOf(cells[layout.symbol]);
    const date = dateCell(cells[layout.date], 'date');
    this.repeats.check(id, date, this.line, this.registry.symbols[id]);
    this.store(
      id,
      date,
      numberCell(cells[layout.open], 'open'),
      numberCell(cells[layout.high], 'high'),
      numberCell(cells[layout.low], 'low'),
      numberCell(cells[layout.close], 'close'),
      numberCell(cells[layout.volume], 'volume'),
      numberCell(cells[layout.amount], 'amount'),
      layout.adj < 0 ? NaN : numberCell(cells[layout.adj], 'adj_factor'),
    );
  }

  private store(
    id: number,
    date: number,
    open: number,
    high: number,
    low: number,
    close: number,
    volume: number,
    amount: number,
    adj: number,
  ): void {
    if (high < low) throw new RowError(`high ${high} is below low ${low}`);
    if (volume < 0) throw new RowError(`volume: negative (${volume})`);
    if (adj <= 0) throw new RowError(`adj_factor: must be positive (${adj})`);
    const i = this.count;
    const { columns: c, symbolIds } = this.rows;
    if (i === symbolIds.length) throw new RowError('more rows than a moment ago: the file changed while it was read');
    symbolIds[i] = id;
    c.date[i] = date;
    c.open[i] = open;
    c.high[i] = high;
    c.low[i] = low;
    c.close[i] = close;
    c.volume[i] = volume;
    c.amount[i] = amount;
    c.adj_factor[i] = adj !== adj ? 1 : adj; // empty or absent means 1
    this.count = i + 1;
    this.line++;
    this.onRow(this.count);
  }

  /** The symbol id of the cell `buf[a, b)` (ASCII), the last one's when the bytes are the same. */
  private symbolOf(buf: Buffer, a: number, b: number): number {
    const length = b - a;
    if (length === this.lastSymbolLength) {
      // for each byte: the same as the last symbol's (a loop: Buffer#compare costs more than the few bytes it compares)
      const last = this.lastSymbol;
      let same = true;
      for (let i = 0; i < length && same; i++) same = buf[a + i] === last[i];
      if (same) return this.lastId;
    }
    const id = this.registry.idOf(buf.toString('latin1', a, b));
    if (length <= this.lastSymbol.length) {
      buf.copy(this.lastSymbol, 0, a, b);
      this.lastSymbolLength = length;
      this.lastId = id;
    } else this.lastSymbolLength = -1;
    return id;
  }

  /**
   * The number of cell `column`: a plain decimal of up to 15 significant digits is read here,
   * as `parseDecimal`'s fast path reads it (one correctly rounded division, equal to
   * Number(text)); anything else goes through `numberCell`, which also words the refusal.
   */
  private number(buf: Buffer, column: number, name: string): number {
    const a = this.starts[column];
    const b = this.ends[column];
    if (a === b) return NaN; // an empty cell: null
    let i = a;
    let negative = false;
    const first = buf[i];
    if (first === 45 || first === 43) (negative = first === 45), i++;
    let mantissa = 0;
    let digits = 0;
    let fraction = -1;
    for (; i < b; i++) {
      const c = buf[i];
      if (c >= 48 && c <= 57) {
        mantissa = mantissa * 10 + (c - 48);
        digits++;
        if (fraction >= 0) fraction++;
      } else if (c === 46 && fraction < 0) fraction = 0;
      else return numberCell(buf.toString('latin1', a, b), name);
    }
    if (digits === 0 || digits > 15 || fraction > 22) return numberCell(buf.toString('latin1', a, b), name);
    const value = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
    return value === 0 ? 0 : negative ? -value : value; // -0 stored as 0
  }
}

/** `YYYY-MM-DD` or `YYYYMMDD` of ASCII bytes as a day number, or INVALID_DATE (the caller words the refusal). */
function dateOf(buf: Buffer, a: number, b: number): number {
  let year: number;
  let month: number;
  let day: number;
  if (b - a === 10) {
    if (buf[a + 4] !== 45 || buf[a + 7] !== 45) return INVALID_DATE;
    year = digits(buf, a, 4);
    month = digits(buf, a + 5, 2);
    day = digits(buf, a + 8, 2);
  } else if (b - a === 8) {
    year = digits(buf, a, 4);
    month = digits(buf, a + 4, 2);
    day = digits(buf, a + 6, 2);
  } else return INVALID_DATE;
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return INVALID_DATE;
  return daysFromCivil(year, month, day);
}

/** `n` decimal digits at `at`, or a negative number when one is not a digit. */
function digits(buf: Buffer, at: number, n: number): number {
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = buf[at + i] - 48;
    if (c < 0 || c > 9) return -1e9;
    value = value * 10 + c;
  }
  return value;
}
