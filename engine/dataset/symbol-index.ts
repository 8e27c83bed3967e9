// A market's symbols: canonical codes in ascending order, names, and case-insensitive lookup.

export interface SymbolLabels {
  names: readonly (string | null)[];
  marketNames: readonly (string | null)[];
  marketTypes: readonly (string | null)[];
}

export class SymbolIndex {
  private readonly exact = new Map<string, number>();
  private readonly folded = new Map<string, number>();
  /** Lower-cased codes and names, for case-insensitive search. */
  readonly lowerCodes: readonly string[];
  readonly lowerNames: readonly string[];

  /** `codes` ascending by code unit, unique even without regard to case. */
  constructor(
    readonly codes: readonly string[],
    readonly labels: SymbolLabels,
  ) {
    codes.forEach((code, i) => {
      this.exact.set(code, i);
      this.folded.set(code.toLowerCase(), i);
    });
    this.lowerCodes = codes.map((code) => code.toLowerCase());
    this.lowerNames = codes.map((_, i) => (labels.names[i] ?? '').toLowerCase());
  }

  get size(): number {
    return this.codes.length;
  }

  /** Position of `text` matched case-insensitively (`SH600000` finds `sh600000`), or -1. */
  find(text: string): number {
    return this.exact.get(text) ?? this.folded.get(text.toLowerCase()) ?? -1;
  }

  name(i: number): string | null {
    return this.labels.names[i] ?? null;
  }
}
