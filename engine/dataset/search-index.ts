// A market's symbol search as an index: every suffix of every lower-cased code sorted (one binary
// search finds the codes that are the term, start with it or hold it), and posting lists of the
// 1-, 2- and 3-character grams of every name (a longer term's candidates are the list of its
// rarest gram), so a search costs what its matches and its page cost, not a scan of every code
// and name.

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

/** A term's matches among the codes: exact, prefix and substring, each ascending. */
interface CodeMatches {
  exact: Int32Array;
  prefix: Int32Array;
  inside: Int32Array;
}

/**
 * Every suffix of every code, sorted by code unit: the codes holding a term own the run of
 * suffixes that start with it, found by one binary search; a suffix at its code's start is a
 * prefix match (exact when as long as the term). The codes' units lie back to back in one array
 * and suffixes are positions in it, so a search compares in a few cache lines (the suffixes as
 * strings were scattered over the heap: a cache miss at each step of the search).
 */
class CodeSuffixes {
  private readonly units: Uint16Array;
  /** Where each code begins in `units` (code i is [textStarts[i], textStarts[i + 1])). */
  private readonly textStarts: Int32Array;
  /** The suffixes in order: where each begins in `units`, and whose code it is. */
  private readonly starts: Int32Array;
  private readonly owners: Int32Array;

  constructor(codes: readonly string[]) {
    const textStarts = new Int32Array(codes.length + 1);
    codes.forEach((code, i) => (textStarts[i + 1] = textStarts[i] + code.length));
    const units = new Uint16Array(textStarts[codes.length]);
    const owners = new Int32Array(units.length);
    codes.forEach((code, i) => {
      for (let k = 0; k < code.length; k++)
        (units[textStarts[i] + k] = code.charCodeAt(k)), (owners[textStarts[i] + k] = i);
    });
    const endOf = (at: number): number => textStarts[owners[at] + 1];
    const order = Int32Array.from(units.keys()).sort((a, b) => {
      const aEnd = endOf(a);
      const bEnd = endOf(b);
      for (let x = a, y = b; x < aEnd && y < bEnd; x++, y++) if (units[x] !== units[y]) return units[x] - units[y];
      return aEnd - a - (bEnd - b) || owners[a] - owners[b];
    });
    this.units = units;
    this.textStarts = textStarts;
    this.starts = order;
    this.owners = Int32Array.from(order, (at) => owners[at]);
  }

  /** Bytes its arrays hold: 10 a character (its unit, and its suffix's start and owner), 4 a code. */
  get bytes(): number {
    return this.units.byteLength + this.textStarts.byteLength + this.starts.byteLength + this.owners.byteLength;
  }

  /** The codes holding `term` (non-empty), by where they hold it. */
  matches(term: string): CodeMatches {
    const { starts, owners, textStarts } = this;
    // The run of suffixes starting with the term: those not below it, up to the first that does not start with it.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, term) < 0) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    let top = starts.length;
    while (end < top) {
      const mid = (end + top) >>> 1;
      if (this.compare(mid, term) === 0) end = mid + 1;
      else top = mid;
    }
    let exact = EMPTY;
    let prefixes = 0;
    for (let k = lo; k < end; k++)
      if (starts[k] === textStarts[owners[k]]) {
        if (textStarts[owners[k] + 1] - starts[k] === term.length) exact = Int32Array.of(owners[k]);
        else prefixes++;
      }
    const prefix = new Int32Array(prefixes);
    const inside = new Int32Array(end - lo - prefixes - exact.length);
    let p = 0;
    let n = 0;
    for (let k = lo; k < end; k++)
      if (starts[k] !== textStarts[owners[k]]) inside[n++] = owners[k];
      else if (textStarts[owners[k] + 1] - starts[k] !== term.length) prefix[p++] = owners[k];
    return { exact, prefix: prefix.sort(), inside: inside.sort() };
  }

  /** Suffix k against `term`: below (negative), starting with it (0), or above it. */
  private compare(k: number, term: string): number {
    const { units } = this;
    const at = this.starts[k];
    const end = this.textStarts[this.owners[k] + 1];
    for (let x = 0; x < term.length; x++) {
      if (at + x === end) return -1; // a shorter suffix equal so far is below
      const d = units[at + x] - term.charCodeAt(x);
      if (d !== 0) return d;
    }
    return 0;
  }
}

/**
 * The search index of one market's symbols, over their codes and names as lower-cased once
 * (`SymbolIndex.lowerCodes`, `lowerNames`). Made when a market is first searched, kept with its
 * symbol index (a Dataset's, or an as-of view's); it never changes.
 */
export class SearchIndex {
  private readonly codeSuffixes: CodeSuffixes;
  private readonly nameGrams: GramPostings;
  /** The term a position was last matched for (`marks[i] === asked`): each symbol in its first rank only. */
  private readonly marks: Uint32Array;
  private asked = 0;
  /** Every position, ascending: what '' matches. */
  private every: Int32Array | null = null;

  constructor(
    private readonly codes: readonly string[],
    private readonly names: readonly string[],
  ) {
    this.codeSuffixes = new CodeSuffixes(codes);
    this.nameGrams = new GramPostings(names);
    this.marks = new Uint32Array(codes.length);
  }

  /**
   * Bytes the index holds: the codes' units and sorted suffixes (10 bytes a character, 4 a code),
   * the names' postings and gram tables (at most three grams a character). Bounded by the
   * characters it indexes: ashare's 24,000 characters of codes and 12,000 of CJK names take 0.86 MB.
   */
  get bytes(): number {
    return this.codeSuffixes.bytes + this.nameGrams.bytes;
  }

  /**
   * The lower-cased `term`'s matches, ranked: exact code (with `named`, the symbol the term names in
   * another form such as `600000.sh`, or −1), code prefix, code substring, name substring.
   */
  matches(term: string, named = -1): RankedMatches {
    const { codes, names, marks } = this;
    // '' starts every code: all of them, as prefixes (the list of every symbol).
    if (term.length === 0)
      return { ranks: [EMPTY, (this.every ??= Int32Array.from(codes.keys())), EMPTY, EMPTY], total: codes.length };
    if (++this.asked === 2 ** 32) marks.fill(0), (this.asked = 1);
    const { asked } = this;
    const byCode = this.codeSuffixes.matches(term);
    const exact =
      named < 0 || byCode.exact.includes(named) ? byCode.exact : Int32Array.from([...byCode.exact, named]).sort();
    // Each symbol in its first rank only (`aa` in aabaa: a prefix, not again inside; the named one not again after).
    for (const i of exact) marks[i] = asked;
    const unmarked = (found: Int32Array): Int32Array => {
      let n = 0;
      const out = new Int32Array(found.length);
      for (const i of found) if (marks[i] !== asked) (marks[i] = asked), (out[n++] = i);
      return out.subarray(0, n);
    };
    const prefix = unmarked(byCode.prefix);
    const inCode = unmarked(byCode.inside);
    const inName = unmarked(this.nameGrams.containing(term, names));
    return {
      ranks: [exact, prefix, inCode, inName],
      total: exact.length + prefix.length + inCode.length + inName.length,
    };
  }
}
