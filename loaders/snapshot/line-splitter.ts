// Cuts a stream of bytes into lines: bounded length, linear time, physical line numbers.

import { RowError } from './snapshot-error.js';

const NEWLINE = 10;
const CR = 13;
/**
 * Bytes decoded into one string at a time. Strings this small live in V8's young
 * generation; a larger one gets fresh memory of its own each time (measured: decoding a
 * 69 MB file in 1 MiB strings took 360 ms, in 32 KiB strings 11 ms).
 */
const PIECE_BYTES = 32 * 1024;

/**
 * Delivers each line of the bytes pushed to `onLine`, decoded as UTF-8, without its `\n`
 * or `\r\n`, numbered from 1. A line longer than `maxLineBytes` throws a RowError as soon
 * as its first `maxLineBytes + 2` bytes are in, whatever follows; bytes that are not UTF-8
 * throw one too (decoding would silently turn them into U+FFFD). `line` is the number of
 * the line being delivered or gathered, for the caller's error message.
 */
export class LineSplitter {
  line = 1;
  /** The bytes of the unfinished line (one buffer, grown by doubling: copying stays linear). */
  private pending = Buffer.allocUnsafe(4096);
  private pendingBytes = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (text: string, line: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    if (this.pendingBytes > 0) {
      const first = chunk.indexOf(NEWLINE);
      this.hold(first < 0 ? chunk : chunk.subarray(0, first + 1));
      if (first < 0) return;
      const bytes = this.pendingBytes;
      this.pendingBytes = 0;
      this.decodeLines(this.pending, 0, bytes);
      from = first + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    for (let start = from; start <= last; ) {
      // The piece ends just after a '\n', so it never splits a UTF-8 sequence.
      let end = start + PIECE_BYTES > last ? last + 1 : chunk.lastIndexOf(NEWLINE, start + PIECE_BYTES) + 1;
      if (end <= start) end = chunk.indexOf(NEWLINE, start + PIECE_BYTES) + 1; // one line longer than a piece
      this.decodeLines(chunk, start, end);
      start = end;
    }
    const rest = Math.max(from, last + 1);
    if (rest < chunk.length) this.hold(chunk.subarray(rest));
  }

  /** Delivers the last line when the input does not end with a line break. */
  end(): void {
    if (this.pendingBytes === 0) return;
    const text = this.pending.toString('utf8', 0, this.pendingBytes);
    this.pendingBytes = 0;
    this.deliver(text, 0, text.length, text.indexOf('\uFFFD'));
  }

  /** Appends to the unfinished line, throwing as soon as it outgrows the limit (+ 1 for a '\r', + 1 for the '\n'). */
  private hold(bytes: Buffer): void {
    const total = this.pendingBytes + bytes.length;
    if (total > this.maxLineBytes + 2 || (total === this.maxLineBytes + 2 && bytes[bytes.length - 1] !== NEWLINE))
      throw this.tooLong();
    if (total > this.pending.length) {
      const bigger = Buffer.allocUnsafe(Math.min(this.maxLineBytes + 2, Math.max(total, this.pending.length * 2)));
      this.pending.copy(bigger, 0, 0, this.pendingBytes);
      this.pending = bigger;
    }
    bytes.copy(this.pending, this.pendingBytes);
    this.pendingBytes = total;
  }

  /** Delivers the lines of bytes [start, end), which end with a '\n'. */
  private decodeLines(bytes: Buffer, start: number, end: number): void {
    const text = bytes.toString('utf8', start, end);
    const invalid = text.indexOf('\uFFFD');
    for (let from = 0; from < text.length; ) {
      const newline = text.indexOf('\n', from);
      this.deliver(text, from, newline, invalid);
      from = newline + 1;
    }
  }

  private deliver(text: string, start: number, end: number, invalid: number): void {
    const stop = end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end;
    // Not UTF-8 first: a U+FFFD takes 3 bytes where the bad bytes it stands for may be fewer,
    // so measuring such a line could call it too long when it is not.
    if (invalid >= start && invalid < end) throw new RowError('not UTF-8 text (or a U+FFFD replacement character)');
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter lines need no byte count.
    if (stop - start > this.maxLineBytes / 3 && Buffer.byteLength(text.slice(start, stop)) > this.maxLineBytes)
      throw this.tooLong();
    this.onLine(text.slice(start, stop), this.line);
    this.line++;
  }

  private tooLong(): RowError {
    return new RowError(`line longer than ${this.maxLineBytes} bytes`);
  }
}
