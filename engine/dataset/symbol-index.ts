// A market's symbols: canonical codes in ascending order, names, and lookup by code or by the
// forms users type (`600000.SH`, `0700.HK`, `AAPL`, `BTC-USDT`, a bare number), in any case.

export interface SymbolLabels {
  names: readonly (string | null)[];
  marketNames: readonly (string | null)[];
  marketTypes: readonly (string | null)[];
}

/** Exchange suffixes of mainland codes (`.SS` is Yahoo's name for Shanghai) → the code's prefix. */
const MAINLAND_SUFFIX: Readonly<Record<string, string>> = { sh: 'sh', ss: 'sh', sz: 'sz', bj: 'bj' };

/**
 * The alias keys of one lower-cased canonical code: `600000.sh` and `600000` for `sh600000`;
 * `#700` (a number, leading zeros dropped) for `hk00700`; `aapl` and `aapl.us` for usstock's
 * `usaapl`. Crypto pairs need none: their forms differ from the code only by a separator.
 */
function aliasKeys(code: string, market: string): string[] {
  const mainland = /^(sh|sz|bj)(\d+)$/.exec(code);
  if (mainland !== null) return [`${mainland[2]}.${mainland[1]}`, mainland[2]];
  const hk = /^hk(\d+)$/.exec(code);
  if (hk !== null) return [`#${Number(hk[1])}`];
  if (market === 'usstock' && code.startsWith('us')) return [code.slice(2), `${code.slice(2)}.us`];
  return [];
}

/** The alias keys a typed text may match (lower-cased): the forms of aliasKeys, and a crypto pair without its separator. */
function typedKeys(text: string): string[] {
  const suffixed = /^([0-9]+)\.(sh|ss|sz|bj|hk)$/.exec(text);
  if (suffixed !== null)
    return suffixed[2] === 'hk' ? [`#${Number(suffixed[1])}`] : [`${suffixed[1]}.${MAINLAND_SUFFIX[suffixed[2]]}`];
  if (/^[0-9]+$/.test(text)) return [text, `#${Number(text)}`];
  const pair = text.replace(/[-/_]/g, '');
  return pair === text ? [text] : [text, pair];
}

export class SymbolIndex {
  private readonly exact = new Map<string, number>();
  private readonly folded = new Map<string, number>();
  /** Alias key → the positions that have it (more than one: the alias is ambiguous). */
  private readonly aliases = new Map<string, number[]>();
  /** Lower-cased codes and names, for case-insensitive search. */
  readonly lowerCodes: readonly string[];
  readonly lowerNames: readonly string[];

  /** `codes` ascending by code unit, unique even without regard to case; `market` chooses the alias rules. */
  constructor(
    readonly codes: readonly string[],
    readonly labels: SymbolLabels,
    market = '',
  ) {
    codes.forEach((code, i) => {
      this.exact.set(code, i);
      this.folded.set(code.toLowerCase(), i);
    });
    codes.forEach((code, i) => {
      for (const key of aliasKeys(code.toLowerCase(), market)) {
        const known = this.aliases.get(key);
        if (known === undefined) this.aliases.set(key, [i]);
        else known.push(i);
      }
    });
    this.lowerCodes = codes.map((code) => code.toLowerCase());
    this.lowerNames = codes.map((_, i) => (labels.names[i] ?? '').toLowerCase());
  }

  get size(): number {
    return this.codes.length;
  }

  /**
   * Position of `text` matched case-insensitively (`SH600000` finds `sh600000`), or through
   * exactly one symbol's alias (`600000.SH`, `700`, `AAPL`, `BTC-USDT`); -1 for none or several.
   */
  find(text: string): number {
    const found = this.exact.get(text) ?? this.folded.get(text.toLowerCase());
    if (found !== undefined) return found;
    const matches = this.matches(text);
    return matches.length === 1 ? matches[0] : -1;
  }

  /** Every position `text` names as a code or an alias, ascending: none, one, or several (an ambiguous bare code). */
  matches(text: string): number[] {
    const lower = text.toLowerCase();
    const found = this.folded.get(lower);
    if (found !== undefined) return [found];
    const all = new Set<number>();
    for (const key of typedKeys(lower)) {
      const code = this.folded.get(key);
      if (code !== undefined) all.add(code);
      for (const i of this.aliases.get(key) ?? []) all.add(i);
    }
    return [...all].sort((a, b) => a - b);
  }

  name(i: number): string | null {
    return this.labels.names[i] ?? null;
  }
}
