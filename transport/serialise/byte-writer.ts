// Writes JSON text straight into bytes: ASCII pieces and numbers, no intermediate strings.

/**
 * A growable byte buffer for rendering rows. Numbers with at most 4 decimals (nearly every
 * price and size) are written digit by digit from integers, which is several times faster
 * than String(x) followed by an encode; anything else falls back to String(x).
 */
export class ByteWriter {
  buf: Buffer;
  pos = 0;

  constructor(capacity = 1 << 16) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Raw bytes (an Arrow buffer: a typed array's own bytes). */
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Zero bytes up to the next multiple of 8 from `from` (Arrow pads every buffer and message to 8). */
  pad8(from = 0): void {
    const n = (8 - ((this.pos - from) & 7)) & 7;
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** Text known to be ASCII (keys, codes, dates). */
  ascii(text: string): void {
    this.ensure(text.length);
    const { buf } = this;
    for (let i = 0; i < text.length; i++) buf[this.pos++] = text.charCodeAt(i);
  }

  /** A JSON string literal of any text (names may be any Unicode). */
  string(text: string): void {
    const literal = JSON.stringify(text);
    this.ensure(literal.length * 3);
    this.pos += this.buf.write(literal, this.pos, 'utf8');
  }

  /** Exactly JSON.stringify(x) (`null` for NaN). */
  number(x: number): void {
    if (x >= 0 && x < 1e11) {
      const scaled = Math.round(x * 10000);
      if (scaled / 10000 === x) {
        const whole = Math.floor(scaled / 10000);
        this.ensure(17);
        this.wholeNumber(whole);
        this.fraction(scaled - whole * 10000);
        return;
      }
    } else if (x < 0 && x > -1e11) {
      this.ensure(1);
      this.buf[this.pos++] = 45; // '-'
      this.number(-x);
      return;
    }
    this.ascii(x === x ? String(x) : 'null');
  }

  /** 0 ≤ n < 1e11, an integer. */
  private wholeNumber(n: number): void {
    let digits = 1;
    for (let t = n; t >= 10; t = Math.floor(t / 10)) digits++;
    const { buf } = this;
    let p = this.pos + digits;
    this.pos = p;
    do {
      const q = Math.floor(n / 10);
      buf[--p] = 48 + n - q * 10;
      n = q;
    } while (n > 0);
  }

  /** `.dddd` of 1 ≤ f ≤ 9999 with trailing zeros left out; nothing for 0. */
  private fraction(f: number): void {
    if (f === 0) return;
    const { buf } = this;
    buf[this.pos++] = 46; // '.'
    for (let div = 1000; f > 0; div /= 10) {
      const d = Math.floor(f / div);
      buf[this.pos++] = 48 + d;
      f -= d * div;
    }
  }

  /** Copies what was written into `target` at `at` (the caller has made room) and empties the writer; returns the bytes copied. */
  moveTo(target: Uint8Array, at: number): number {
    const n = this.pos;
    this.buf.copy(target, at, 0, n);
    this.pos = 0;
    return n;
  }

  /**
   * A right-sized copy of what was written in memory of its own (never a slice of Node's
   * shared 8 KiB pool, which a kept copy would keep alive whole): for bytes kept long.
   */
  takeOwn(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    return out;
  }

  /** What was written, as text (the writer holds ASCII), and empties the writer. */
  takeText(): string {
    const text = this.buf.toString('latin1', 0, this.pos);
    this.pos = 0;
    return text;
  }

  /** A right-sized copy of what was written; the writer can then be reused. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    return out;
  }
}
