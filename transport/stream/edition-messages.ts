// The messages a new edition sends: `edition` (what changed) and, per bars subscription, `bars` (the
// rows of the days it added), each symbol's rows rendered once per edition for every topic.

import { dateText } from '../../engine/calendar/date-text.js';
import { KLINE_FIELDS } from '../../engine/columns.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { addedRows, factorChanged, type MarketChange } from '../../engine/queries/edition-changes.js';
import { latestRow, rowsOf } from '../../engine/queries/klines.js';
import { klineRows } from '../serialise/rows.js';
import type { BarsTopic } from './connection.js';
import { encoded, type Frame } from './encode.js';
import type { StreamFormat } from './protocol.js';

/** The `edition` message of `next` served after `previous`. */
export function editionMessage(previous: Dataset, next: Dataset, changes: readonly MarketChange[]): object {
  return {
    type: 'edition',
    data_version: next.version,
    previous: previous.version,
    markets: changes.map((c) => ({
      market: c.after.market,
      rows_added: c.rowsAdded,
      last_date: c.after.lastDate === null ? null : dateText(c.after.lastDate),
      history_changed: c.historyChanged,
    })),
  };
}

type Row = Record<string, string | number | null>;

/** What one `bars` message of a topic holds: its frame and the rows it charges. */
export interface BarsMessage {
  frame: Frame;
  rows: number;
}

/**
 * One changed market's added rows for this edition: each symbol's rows (all K-line fields, bfq,
 * as batch K-lines `fields=*` renders them) and whether its latest factor moved, worked out on
 * first ask and shared by every bars topic of the market.
 */
export class AddedBars {
  private readonly rows = new Map<number, Row[]>();
  private readonly json = new Map<number, string>();
  private factors: Uint8Array | null = null;
  private withRows: number[] | null = null;

  constructor(
    private readonly change: MarketChange,
    private readonly version: string,
  ) {}

  /** Rows symbol `i` added (none when the market had no rows before: its history is not "new days"). */
  private rowsOf(i: number): Row[] {
    let rows = this.rows.get(i);
    if (rows !== undefined) return rows;
    const { after, lastBefore } = this.change;
    rows = [];
    if (lastBefore !== null) {
      const { from, to } = addedRows(after, lastBefore, i);
      if (to > from)
        rows = klineRows(
          rowsOf(after, { i, from, to, base: latestRow(after, i) }, 'bfq', KLINE_FIELDS),
          after.symbols.codes[i],
          KLINE_FIELDS,
        );
    }
    this.rows.set(i, rows);
    return rows;
  }

  /** `"code":[rows]` of symbol `i`. */
  private segment(i: number): string {
    let text = this.json.get(i);
    if (text === undefined)
      this.json.set(i, (text = `"${this.change.after.symbols.codes[i]}":${JSON.stringify(this.rowsOf(i))}`)); // codes need no escaping
    return text;
  }

  private factorMoved(i: number): boolean {
    if (this.factors === null) {
      const n = this.change.after.symbols.size;
      this.factors = new Uint8Array(n);
      for (let k = 0; k < n; k++) this.factors[k] = factorChanged(this.change, k) ? 1 : 0;
    }
    return this.factors[i] === 1;
  }

  /** The symbols of the market with added rows, in market order (`*`'s symbols). */
  private symbolsWithRows(): number[] {
    if (this.withRows !== null) return this.withRows;
    const { after, lastBefore } = this.change;
    const found: number[] = [];
    if (lastBefore !== null && this.change.daysAdded.length > 0)
      for (let i = 0; i < after.symbols.size; i++) {
        const { from, to } = addedRows(after, lastBefore, i);
        if (to > from) found.push(i);
      }
    return (this.withRows = found);
  }

  /**
   * The `bars` message of `topic`, or null when the edition added no day to the market and moved
   * none of its factors (or the market had no rows before). Listed symbols all appear, with an
   * empty array when they have no row those days; `*` holds the symbols that have rows.
   */
  message(topic: BarsTopic): BarsMessage | null {
    const { after, lastBefore, daysAdded } = this.change;
    if (lastBefore === null) return null;
    const symbols: number[] = [];
    const moved: string[] = [];
    if (topic.all) {
      symbols.push(...this.symbolsWithRows());
      for (let i = 0; i < after.symbols.size; i++) if (this.factorMoved(i)) moved.push(after.symbols.codes[i]);
    } else
      for (const code of topic.codes) {
        const i = after.symbols.find(code);
        if (i < 0) continue; // gone from the market since it was subscribed
        symbols.push(i);
        if (this.factorMoved(i)) moved.push(code);
      }
    if (daysAdded.length === 0 && moved.length === 0) return null;
    let rows = 0;
    for (const i of symbols) rows += this.rowsOf(i).length;
    return { frame: this.frame(topic.format, symbols, moved), rows };
  }

  private frame(format: StreamFormat, symbols: readonly number[], moved: readonly string[]): Frame {
    const market = this.change.after.market;
    if (format === 'json')
      return `{"type":"bars","market":"${market}","data_version":${JSON.stringify(this.version)},"data":{${symbols.map((i) => this.segment(i)).join(',')}},"factor_changed":${JSON.stringify(moved)}}`;
    const data: Record<string, Row[]> = {};
    for (const i of symbols) data[this.change.after.symbols.codes[i]] = this.rowsOf(i);
    return encoded(format, { type: 'bars', market, data_version: this.version, data, factor_changed: moved });
  }
}
