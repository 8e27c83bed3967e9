// Catches a repeated (symbol, date) as rows arrive, before the rest of the file is read.

import { formatDate } from '../../engine/calendar/days.js';
import { RowError } from './snapshot-error.js';

/** The reason of a duplicate-row rejection, the same whether found early or after sorting. */
export function duplicateReason(
  symbol: string,
  date: number,
  firstLine: number,
  firstFile: string | null = null,
): string {
  const at = firstFile === null ? `line ${firstLine}` : `${firstFile}:${firstLine}`;
  return `duplicate row for ${symbol} on ${formatDate(date)} (first at ${at})`;
}

/** A row repeating its symbol's previous date: the reason's parts, so a line number counted from a piece's start can be made the file's. */
export class RepeatedRowError extends RowError {
  constructor(
    readonly symbol: string,
    readonly date: number,
    readonly firstLine: number,
  ) {
    super(duplicateReason(symbol, date, firstLine));
  }
}

/**
 * Remembers each symbol's last date and line. A row repeating its symbol's previous date
 * (the usual case: a file of one repeated row, or a block pasted twice) is rejected at
 * once; repeats between unsorted rows are still found after sorting (groupRows).
 */
export class RepeatedDates {
  private dates = new Int32Array(1024);
  /** 0 until the symbol has a row in this file. */
  private lines = new Int32Array(1024);

  check(symbolId: number, date: number, line: number, symbol: string): void {
    if (symbolId >= this.lines.length) this.grow(symbolId);
    if (this.lines[symbolId] !== 0 && this.dates[symbolId] === date)
      throw new RepeatedRowError(symbol, date, this.lines[symbolId]);
    this.dates[symbolId] = date;
    this.lines[symbolId] = line;
  }

  private grow(symbolId: number): void {
    const size = Math.max(symbolId + 1, this.lines.length * 2);
    const dates = new Int32Array(size);
    const lines = new Int32Array(size);
    dates.set(this.dates);
    lines.set(this.lines);
    this.dates = dates;
    this.lines = lines;
  }
}
