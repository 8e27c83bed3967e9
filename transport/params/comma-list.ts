// A comma-separated list as sent: its text and where each trimmed item lies in it. A symbol
// lookup reads an item in place (SymbolIndex.findIn): a batch of 50 codes makes no string per item.

import { badParam } from '../problem.js';

const visible = (c: number): boolean => c > 32 && c < 127;

export class CommaList {
  /** Item k is text[bounds[2k], bounds[2k + 1]). */
  private constructor(
    readonly text: string,
    private readonly bounds: number[],
  ) {}

  /** The trimmed items of `raw` (parameter `name`); an empty item (or an empty list) is a 400. */
  static parse(raw: string, name: string): CommaList {
    const bounds: number[] = [];
    for (let from = 0; ; ) {
      const comma = raw.indexOf(',', from);
      const to = comma < 0 ? raw.length : comma;
      let a = from;
      let b = to;
      // an item that starts and ends with visible ASCII needs no trim (nor a string to trim)
      if (!(b > a && visible(raw.charCodeAt(a)) && visible(raw.charCodeAt(b - 1)))) {
        const part = raw.slice(a, b);
        const trimmed = part.trim();
        if (trimmed.length === 0)
          throw badParam(name, raw.trim().length === 0 ? 'must not be empty' : 'has an empty item');
        a += part.length - part.trimStart().length;
        b = a + trimmed.length;
      }
      bounds.push(a, b);
      if (comma < 0) return new CommaList(raw, bounds);
      from = comma + 1;
    }
  }

  /** How many items were sent (a symbol named twice counts twice). */
  get length(): number {
    return this.bounds.length >> 1;
  }

  /** Where item k starts in `text`. */
  start(k: number): number {
    return this.bounds[2 * k];
  }

  /** Where item k ends in `text`. */
  end(k: number): number {
    return this.bounds[2 * k + 1];
  }

  /** Item k as a string. */
  item(k: number): string {
    return this.text.slice(this.bounds[2 * k], this.bounds[2 * k + 1]);
  }

  /** Every item, as given (trimmed), in order. */
  items(): string[] {
    return Array.from({ length: this.length }, (_, k) => this.item(k));
  }

  /** How many distinct texts the list holds, counted only when it has more than `atMost` items (else its length). */
  distinctCount(atMost: number): number {
    return this.length <= atMost ? this.length : new Set(this.items()).size;
  }
}
