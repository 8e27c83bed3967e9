// A market's symbol search as an index: its lower-cased codes sorted (exact and prefix matches are
// one binary search), every suffix of every code sorted (a code substring is one binary search and
// its run), and posting lists of the 1-, 2- and 3-character grams of every name (a longer term's
// candidates are the list of its rarest gram), so a search costs what its matches and its page
// cost, not a scan of every code and name.

/** The matches of one term, each rank's symbol positions ascending (ties by symbol). */
export interface RankedMatches {
  /** Rank by rank: exact code, code prefix, code substring, name substring; a symbol in the first rank it meets. */
  ranks: [Int32Array, Int32Array, Int32Array, Int32Array];
  total: number;
}

/** Characters in a gram at most: a longer term's candidates are those holding all its 3-grams, checked whole. */
const GRAM = 3;

/**
 * Posting lists of the grams of some texts, in one array: the positions holding gram g are
 * `postings[starts[slot] … starts[slot + 1])`, ascending, `slot` found by the gram itself (a
 * string key: a number packing three UTF-16 units would be a heap double, boxed at every lookup).
 */
class GramPostings {
  private readonly slots = new Map<string, number>();
  private readonly starts: Int32Array;
  private readonly postings: Int32Array;

  constructor(texts: readonly string[]) {
    // Two passes over every gram of every text: count each gram's positions, then lay them out in
    // position order. A gram twice in one text counts once (its list's last position is that text).
    const { slots } = this;
    const counts: number[] = [];
    const last: number[] = [];
    const visit = (each: (slot: number, i: number) => void): void => {
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i];
        for (let n = 1; n <= GRAM; n++)
          for (let at = 0; at + n <= text.length; at++) {
            const gram = text.slice(at, at + n);
            let slot = slots.get(gram);
            if (slot === undefined) slots.set(gram, (slot = counts.length)), counts.push(0), last.push(-1);
            if (last[slot] !== i) (last[slot] = i), each(slot, i);
          }
      }
    };
    visit((slot) => counts[slot]++);
    this.starts = new Int32Array(counts.length + 1);
    for (let s = 0; s < counts.length; s++) this.starts[s + 1] = this.starts[s] + counts[s];
    this.postings = new Int32Array(this.starts[counts.length]);
    const fill = this.starts.slice(0, counts.length);
    last.fill(-1);
    visit((slot, i) => (this.postings[fill[slot]++] = i));
  }

  /** Bytes the lists hold (the Map's entries and their short strings counted at ~56 bytes each). */
  get bytes(): number {
    return this.postings.byteLength + this.starts.byteLength + this.slots.size * 56;
  }

  /**
   * The positions whose text (`texts`, the ones indexed) contains `term` (non-empty), ascending.
   * A term of up to GRAM characters is its gram's list (a view); a longer one's candidates are the
   * list of its rarest gram, each checked whole: a few short texts, cheaper than intersecting lists.
   */
  containing(term: string, texts: readonly string[]): Int32Array {
    const { slots, starts, postings } = this;
    if (term.length <= GRAM) {
      const slot = slots.get(term);
      return slot === undefined ? EMPTY : postings.subarray(starts[slot], starts[slot + 1]);
    }
    let rarest = -1;
    for (let at = 0; at + GRAM <= term.length; at++) {
      const slot = slots.get(term.slice(at, at + GRAM));
      if (slot === undefined) return EMPTY;
      if (rarest < 0 || starts[slot + 1] - starts[slot] < starts[rarest + 1] - starts[rarest]) rarest = slot;
    }
    const from = starts[rarest];
    const to = starts[rarest + 1];
    const out = new Int32Array(to - from);
    let found = 0;
    for (let k = from; k < to; k++) if (texts[postings[k]].includes(term)) out[found++] = postings[k];
    return out.subarray(0, found);
  }
}

const EMPTY = new Int32Array(0);

/**
 * Every suffix of some short texts (the codes), sorted by code unit: the texts containing a term
 * own the run of suffixes that start with it, found by one binary search, so a code substring
 * costs what its matches cost (the list of a code's rarest gram still runs to hundreds: `000`).
 */
class SortedSuffixes {
  private readonly suffixes: string[];
  private readonly owners: Int32Array;
  /** Bytes of the suffixes' strings (a header and two bytes a code unit each). */
  private readonly stringBytes: number;

  constructor(texts: readonly string[]) {
    const all: { suffix: string; owner: number }[] = [];
    let stringBytes = 0;
    texts.forEach((text, owner) => {
      for (let at = 0; at < text.length; at++) all.push({ suffix: text.slice(at), owner });
      stringBytes += text.length * 16 + text.length * (text.length + 1);
    });
    all.sort((a, b) => byCodeUnit(a.suffix, b.suffix) || a.owner - b.owner);
    this.suffixes = all.map((e) => e.suffix);
    this.owners = Int32Array.from(all, (e) => e.owner);
    this.stringBytes = stringBytes;
  }

  get bytes(): number {
    return this.owners.byteLength + 8 * this.suffixes.length + this.stringBytes;
  }

  /** The positions whose text contains `term` (non-empty), ascending, each once. */
  containing(term: string): Int32Array {
    const [lo, end] = startingWith(this.suffixes, term);
    const found = this.owners.slice(lo, end).sort();
    // A text holding the term twice (`00` in sz000001) owns two suffixes of the run: it counts once.
    let n = 0;
    for (let k = 0; k < found.length; k++) if (n === 0 || found[k] !== found[n - 1]) found[n++] = found[k];
    return found.subarray(0, n);
  }
}

/** Compares strings by UTF-16 code unit (the order of codes and of `startsWith`). */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The search index of one market's symbols, over their codes and names as lower-cased once
 * (`SymbolIndex.lowerCodes`, `lowerNames`). Made when a market is first searched, kept with its
 * symbol index (a Dataset's, or an as-of view's); it never changes.
 */
export class SearchIndex {
  /** Positions in the order of their lower-cased codes. */
  private readonly sorted: Int32Array;
  private readonly sortedCodes: string[];
  private readonly codeSuffixes: SortedSuffixes;
  private readonly nameGrams: GramPostings;
  /** The term a position was last matched for (`marks[i] === asked`): each symbol in its first rank only. */
  private readonly marks: Uint32Array;
  private asked = 0;

  constructor(
    private readonly codes: readonly string[],
    private readonly names: readonly string[],
  ) {
    this.sorted = Int32Array.from(codes.keys()).sort((a, b) => byCodeUnit(codes[a], codes[b]));
    this.sortedCodes = Array.from(this.sorted, (i) => codes[i]);
    this.codeSuffixes = new SortedSuffixes(codes);
    this.nameGrams = new GramPostings(names);
    this.marks = new Uint32Array(codes.length);
  }

  /**
   * Bytes the index holds: its postings, gram tables, sorted positions and the sorted codes' slots
   * (their strings are the symbol index's). Bounded by the characters it indexes: at most three
   * grams a character (ashare's 36,000 characters of codes and CJK names: ~0.8 MB).
   */
  get bytes(): number {
    return this.codeSuffixes.bytes + this.nameGrams.bytes + this.sorted.byteLength + 8 * this.sortedCodes.length;
  }

  /** The lower-cased `term`'s matches, ranked: exact code, code prefix, code substring, name substring. */
  matches(term: string): RankedMatches {
    if (++this.asked === 2 ** 32) this.marks.fill(0), (this.asked = 1);
    const { codes, names, marks, asked } = this;
    // Exact and prefix: the run of sorted codes starting with the term (the exact one first, if any).
    const [lo, hi] = startingWith(this.sortedCodes, term);
    let exact = EMPTY;
    const prefixed: number[] = [];
    for (let k = lo; k < hi; k++) {
      const i = this.sorted[k];
      marks[i] = asked;
      if (codes[i].length === term.length) exact = Int32Array.of(i);
      else prefixed.push(i);
    }
    const prefix = Int32Array.from(prefixed).sort();
    const unmarked = (found: Int32Array): Int32Array => {
      let n = 0;
      const out = new Int32Array(found.length);
      for (const i of found) if (marks[i] !== asked) (marks[i] = asked), (out[n++] = i);
      return out.subarray(0, n);
    };
    const inCode = term.length === 0 ? EMPTY : unmarked(this.codeSuffixes.containing(term));
    const inName = term.length === 0 ? EMPTY : unmarked(this.nameGrams.containing(term, names));
    return {
      ranks: [exact, prefix, inCode, inName],
      total: exact.length + prefix.length + inCode.length + inName.length,
    };
  }
}

/** [lo, end): the run of `sorted` (ascending by code unit) that starts with `term` (all of it for ''). */
function startingWith(sorted: readonly string[], term: string): [number, number] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < term) lo = mid + 1;
    else hi = mid;
  }
  // Past the run: the first string from `lo` on that does not start with the term (those that do are contiguous).
  let end = lo;
  let top = sorted.length;
  while (end < top) {
    const mid = (end + top) >>> 1;
    if (sorted[mid].startsWith(term)) end = mid + 1;
    else top = mid;
  }
  return [lo, end];
}
