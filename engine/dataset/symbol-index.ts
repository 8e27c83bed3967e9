// A market's symbols: canonical codes in ascending order, names, and lookup by code or by the
// forms users type (`600000.SH`, `0700.HK`, `AAPL`, `BTC-USDT`, a bare number), in any case.

import { SearchIndex } from './search-index.js';

export interface SymbolLabels {
  names: readonly (string | null)[];
  marketNames: readonly (string | null)[];
  marketTypes: readonly (string | null)[];
}

/** Exchange suffixes of mainland codes (`.SS` is Yahoo's name for Shanghai) → the code's prefix. */
const MAINLAND_SUFFIX: Readonly<Record<string, string>> = { sh: 'sh', ss: 'sh', sz: 'sz', bj: 'bj' };

/** Alias keys of Hong Kong numbers start with a character no typed text keeps (typedKeys makes them). */
const HK = '\u0000hk';

/**
 * The alias keys of one lower-cased canonical code: `600000.sh` and `600000` for `sh600000`;
 * the number with its leading zeros dropped for `hk00700` (in any market: an index may be one);
 * `aapl` and `aapl.us` for usstock's `usaapl`. Crypto pairs need none: their forms differ from
 * the code only by a separator.
 */
function aliasKeys(code: string, market: string): string[] {
  const mainland = /^(sh|sz|bj)(\d+)$/.exec(code);
  if (mainland !== null) return [`${mainland[2]}.${mainland[1]}`, mainland[2]];
  const hk = /^hk(\d+)$/.exec(code);
  if (hk !== null) return [`${HK}${Number(hk[1])}`];
  if (market === 'usstock' && code.startsWith('us')) return [code.slice(2), `${code.slice(2)}.us`];
  return [];
}

/**
 * The alias keys a typed text (lower-cased) may match: an exchange suffix read as its code's
 * key, a bare number as a mainland number or a Hong Kong one, a pair of letters and digits
 * with one separator (`btc-usdt`, `btc/usdt`, `btc_usdt`) without it, anything else as it is.
 */
function typedKeys(text: string): string[] {
  if (!/^[a-z0-9._/-]+$/.test(text)) return []; // no form holds anything else (an internal key's NUL, a space)
  const suffixed = /^([0-9]+)\.(sh|ss|sz|bj|hk)$/.exec(text);
  if (suffixed !== null)
    return suffixed[2] === 'hk' ? [`${HK}${Number(suffixed[1])}`] : [`${suffixed[1]}.${MAINLAND_SUFFIX[suffixed[2]]}`];
  if (/^[0-9]+$/.test(text)) return [text, `${HK}${Number(text)}`];
  const pair = /^([a-z0-9]*[a-z][a-z0-9]*)[-/_]([a-z0-9]*[a-z][a-z0-9]*)$/.exec(text);
  return pair === null ? [text] : [text, pair[1] + pair[2]];
}

/** FNV-1a of the UTF-16 code units of text[from, to): the exact-code table's hash. */
function fnv1a(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
  return h;
}

/** Characters of the texts other than canonical codes whose `find` a symbol index keeps: ~4,000 typical forms, ~0.5 MB at most. */
export const TYPED_CHARACTERS = 1 << 16;

export class SymbolIndex {
  /**
   * Canonical codes by hash, open addressing: slot s holds a code's hash at 2s and its position
   * + 1 at 2s + 1 (0: empty). A batch looks up 50 items read in place in its list (`findIn`);
   * a Map of codes hashed a fresh string per item in the runtime and missed the cache on its
   * entries and keys (~115 ns a lookup under load), where this probes one cache line and
   * compares the packed code units.
   */
  private readonly exact: Int32Array;
  private readonly exactMask: number;
  /**
   * The codes' characters back to back (code i is [codeStarts[i], codeStarts[i + 1])): a found
   * code is compared here, where a batch's neighbouring codes share cache lines, not through
   * each code's string somewhere in the heap.
   */
  private readonly codeUnits: Uint16Array;
  private readonly codeStarts: Int32Array;
  /**
   * Text that was not a canonical code → what `find` made of it (−1 included), so a form a desk
   * types in every batch (`600000.SH`: ~0.7 µs through `matches`) costs one lookup after its
   * first ask. Starts over once its texts pass TYPED_CHARACTERS: a flood of made-up ones is bounded.
   */
  private readonly typed = new Map<string, number>();
  private typedCharacters = 0;
  /**
   * Lower-cased code → its position, and alias key → the positions that have it (more than one:
   * the alias is ambiguous): what a form other than a canonical code is looked up in. Made at the
   * first such form (~4.5 ms for ashare's 3,000 symbols), not with the index: every thread opens
   * every market's index at a start, and these made a third of the full demo's open (~90 → 60 ms).
   */
  private typedTables: { folded: Map<string, number>; aliases: Map<string, number[]> } | null = null;
  /** Lower-cased codes and names, what the search index is made of: made at the first search, as it is. */
  private lowered: { codes: readonly string[]; names: readonly string[] } | null = null;
  private searchIndex: SearchIndex | null = null;

  /** `codes` ascending by code unit, unique even without regard to case; `market` chooses the alias rules. */
  constructor(
    readonly codes: readonly string[],
    readonly labels: SymbolLabels,
    private readonly market = '',
  ) {
    let size = 8;
    while (size < codes.length * 2) size *= 2;
    this.exact = new Int32Array(size * 2);
    this.exactMask = size - 1;
    this.codeStarts = new Int32Array(codes.length + 1);
    codes.forEach((code, i) => (this.codeStarts[i + 1] = this.codeStarts[i] + code.length));
    this.codeUnits = new Uint16Array(this.codeStarts[codes.length]);
    codes.forEach((code, i) => {
      for (let k = 0; k < code.length; k++) this.codeUnits[this.codeStarts[i] + k] = code.charCodeAt(k);
      const h = fnv1a(code, 0, code.length);
      let s = h & this.exactMask;
      while (this.exact[2 * s + 1] !== 0) s = (s + 1) & this.exactMask;
      (this.exact[2 * s] = h), (this.exact[2 * s + 1] = i + 1);
    });
  }

  /** The tables of forms other than canonical codes (made at the first lookup of one). */
  private formTables(): { folded: Map<string, number>; aliases: Map<string, number[]> } {
    if (this.typedTables !== null) return this.typedTables;
    const folded = new Map<string, number>();
    const aliases = new Map<string, number[]>();
    this.codes.forEach((code, i) => {
      const lower = code.toLowerCase();
      folded.set(lower, i);
      for (const key of aliasKeys(lower, this.market)) {
        const known = aliases.get(key);
        if (known === undefined) aliases.set(key, [i]);
        else known.push(i);
      }
    });
    return (this.typedTables = { folded, aliases });
  }

  /** Lower-cased codes, for case-insensitive search. */
  get lowerCodes(): readonly string[] {
    return (this.lowered ??= this.lowerCase()).codes;
  }

  /** Lower-cased names ('' for none), for case-insensitive search. */
  get lowerNames(): readonly string[] {
    return (this.lowered ??= this.lowerCase()).names;
  }

  private lowerCase(): { codes: readonly string[]; names: readonly string[] } {
    return {
      codes: this.codes.map((code) => code.toLowerCase()),
      names: this.codes.map((_, i) => (this.labels.names[i] ?? '').toLowerCase()),
    };
  }

  get size(): number {
    return this.codes.length;
  }

  /**
   * Position of `text`: its canonical code as written, else the one symbol it names in any case
   * or through an alias (`SH600000`, `600000.SH`, `700`, `AAPL`, `BTC-USDT`); -1 for none, or for
   * text that names two (`000001` for sh000001 and sz000001; `USO` for usO and usUSO's ticker).
   */
  find(text: string): number {
    return this.findIn(text, 0, text.length);
  }

  /** `find` of text[from, to), read in place: a canonical code makes no string of its own. */
  findIn(text: string, from: number, to: number): number {
    const i = this.canonical(text, from, to);
    return i >= 0 ? i : this.findTyped(from === 0 && to === text.length ? text : text.slice(from, to));
  }

  /**
   * `find` of a text typed once (a search's term), not kept with its answer: a flood of terms
   * typed as they come would push out the forms desks send in every batch.
   */
  findOnce(text: string): number {
    const i = this.canonical(text, 0, text.length);
    return i >= 0 ? i : this.findTyped(text, false);
  }

  /** Position of text[from, to) as a canonical code, exactly; -1 for none. */
  private canonical(text: string, from: number, to: number): number {
    const { exact, exactMask } = this;
    const h = fnv1a(text, from, to);
    for (let s = h & exactMask; exact[2 * s + 1] !== 0; s = (s + 1) & exactMask)
      if (exact[2 * s] === h && this.isCode(exact[2 * s + 1] - 1, text, from, to)) return exact[2 * s + 1] - 1;
    return -1;
  }

  /** `find` of a text that is not a canonical code: kept with its answer, unless `keep` is false. */
  private findTyped(text: string, keep = true): number {
    let i = this.typed.get(text);
    if (i !== undefined) return i;
    const matches = this.matches(text);
    i = matches.length === 1 ? matches[0] : -1;
    if (!keep) return i;
    if (this.typedCharacters + text.length > TYPED_CHARACTERS) this.typed.clear(), (this.typedCharacters = 0);
    this.typed.set(text, i);
    this.typedCharacters += text.length;
    return i;
  }

  /** Whether text[from, to) is code `i`, exactly. */
  private isCode(i: number, text: string, from: number, to: number): boolean {
    const { codeUnits, codeStarts } = this;
    const at = codeStarts[i] - from;
    if (codeStarts[i + 1] - codeStarts[i] !== to - from) return false;
    for (let k = from; k < to; k++) if (codeUnits[at + k] !== text.charCodeAt(k)) return false;
    return true;
  }

  /** Every position `text` names, as a code in any case or as an alias, ascending: none, one, or several (ambiguous). */
  matches(text: string): number[] {
    const { folded, aliases } = this.formTables();
    const lower = text.toLowerCase();
    const all = new Set<number>();
    const code = folded.get(lower);
    if (code !== undefined) all.add(code);
    for (const key of typedKeys(lower)) {
      const pair = folded.get(key);
      if (pair !== undefined) all.add(pair);
      for (const i of aliases.get(key) ?? []) all.add(i);
    }
    return all.size === 1 ? [...all] : [...all].sort((a, b) => a - b);
  }

  name(i: number): string | null {
    return this.labels.names[i] ?? null;
  }

  /** The search index over the lower-cased codes and names: made on the market's first search, then kept with this index. */
  get search(): SearchIndex {
    return (this.searchIndex ??= new SearchIndex(this.lowerCodes, this.lowerNames));
  }
}
