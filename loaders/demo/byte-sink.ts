// A buffered ASCII file writer with allocation-free number formatting for the hot K-line loop.

import { closeSync, openSync, writeSync } from 'node:fs';

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Writes text into one large buffer and flushes it to a file descriptor in few big writes. */
export class ByteSink {
  /** Bytes written to the file so far (flushed or not). */
  bytes = 0;
  private readonly buf: Buffer;
  private pos = 0;
  private readonly fd: number;

  constructor(path: string, capacity = 1 << 23) {
    this.fd = openSync(path, 'w');
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for `n` more bytes, flushing when the buffer would overflow. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.flush();
  }

  /** Any text (UTF-8), for headers and the small files. */
  text(s: string): void {
    const len = Buffer.byteLength(s);
    if (len > this.buf.length) {
      this.flush();
      this.bytes += writeSync(this.fd, s);
      return;
    }
    this.ensure(len);
    this.pos += this.buf.write(s, this.pos);
    this.bytes += len;
  }

  /** Pre-encoded bytes `src[from, from + len)`; the caller has ensured room. */
  raw(src: Uint8Array, from: number, len: number): void {
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < len; i++) buf[pos++] = src[from + i];
    this.pos = pos;
    this.bytes += len;
  }

  /** One ASCII byte (a separator); the caller has ensured room. */
  byte(c: number): void {
    this.buf[this.pos++] = c;
    this.bytes++;
  }

  /** A non-negative integer below 2^53 in decimal; the caller has ensured room. */
  uint(n: number): void {
    let len = 1;
    while (len < 16 && n >= POW10[len]) len++;
    const buf = this.buf;
    let end = this.pos + len;
    this.pos = end;
    this.bytes += len;
    // Doubles above int32 need float division; below it the cheaper `| 0` path takes over.
    while (n > 2147483647) {
      const q = Math.floor(n / 10);
      buf[--end] = 48 + (n - q * 10);
      n = q;
    }
    let m = n | 0;
    while (m >= 10) {
      const q = (m / 10) | 0;
      buf[--end] = 48 + (m - q * 10);
      m = q;
    }
    buf[--end] = 48 + m;
  }

  /** Fixed-point `units / 10^decimals` with exactly `decimals` digits (units: non-negative integer). */
  fixed(units: number, decimals: number): void {
    if (decimals === 0) return this.uint(units);
    const pow = POW10[decimals];
    const whole = Math.floor(units / pow);
    let frac = units - whole * pow;
    this.uint(whole);
    const buf = this.buf;
    buf[this.pos] = 46; // '.'
    let end = this.pos + 1 + decimals;
    this.pos = end;
    this.bytes += 1 + decimals;
    for (let i = 0; i < decimals; i++) {
      const q = Math.floor(frac / 10);
      buf[--end] = 48 + (frac - q * 10);
      frac = q;
    }
  }

  /** Writes out what is buffered. */
  flush(): void {
    let off = 0;
    while (off < this.pos) off += writeSync(this.fd, this.buf, off, this.pos - off);
    this.pos = 0;
  }

  /** Flushes and closes the file. */
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** `x` with at most `decimals` decimals, trailing zeros dropped (1 → "1", 1.2500 → "1.25"). */
export function trimmedDecimal(x: number, decimals: number): string {
  const s = x.toFixed(decimals);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}
