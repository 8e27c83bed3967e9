// Collects one market's symbols from all its files; matching is case-insensitive.

import { ownString } from './cells.js';
import { isValidSymbol } from './parse-cells.js';
import { RowError } from './snapshot-error.js';

/** Assigns each distinct symbol an id in order of first appearance. */
export class SymbolRegistry {
  readonly symbols: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly byLower = new Map<string, string>();
  private lastText = '';
  private lastId = -1;

  /** The id of `text`, registering it if new; a RowError for a bad or case-clashing code. */
  idOf(text: string): number {
    if (text === this.lastText) return this.lastId; // rows of one symbol usually come together
    let id = this.ids.get(text);
    if (id === undefined) {
      if (!isValidSymbol(text))
        throw new RowError(`symbol: invalid code '${text}' (letters, digits, '.', '-', '_'; at most 32)`);
      const lower = text.toLowerCase();
      const clash = this.byLower.get(lower);
      if (clash !== undefined) throw new RowError(`symbol: '${text}' differs from '${clash}' only by case`);
      const own = ownString(text);
      id = this.symbols.length;
      this.symbols.push(own);
      this.ids.set(own, id);
      this.byLower.set(ownString(lower), own); // toLowerCase may return its input
    }
    this.lastText = text;
    this.lastId = id;
    return id;
  }

  has(text: string): boolean {
    return this.ids.has(text);
  }

  /** rank[id] = position of the symbol in ascending code-unit order. */
  ranks(): Int32Array {
    const order = this.symbols.map((_, i) => i).sort((a, b) => (this.symbols[a] < this.symbols[b] ? -1 : 1));
    const rank = new Int32Array(order.length);
    order.forEach((id, position) => (rank[id] = position));
    return rank;
  }
}
