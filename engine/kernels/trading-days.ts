// The days a market trades: every distinct day of its K-line date column, ascending, in one pass over a bitmap.

/**
 * Every distinct day of `dates` (days since epoch, in any order), ascending. `first` and
 * `last` bound every day of the column (a market's `firstDate` and `lastDate`); a day
 * outside them is a RangeError. One pass sets a bit per day in a bitmap over
 * [first, last] (1.1 KiB for 25 years), counting the bits newly set; a walk over the
 * bitmap's words then lists them. The result is a fresh array the caller owns.
 */
export function tradingDays(dates: Int32Array, first: number, last: number): Int32Array {
  if (dates.length === 0) return new Int32Array(0);
  const span = last - first + 1;
  if (!(span > 0)) throw new RangeError(`no days between ${first} and ${last}`);
  const words = new Uint32Array((span + 31) >>> 5);
  let count = 0;
  // for each date: if not yet seen, mark it seen and count it
  for (let i = 0; i < dates.length; i++) {
    const bit = dates[i] - first;
    if (bit < 0 || bit >= span) throw new RangeError(`day ${dates[i]} is outside ${first} … ${last}`);
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    if ((words[word] & mask) === 0) {
      words[word] |= mask;
      count++;
    }
  }
  const days = new Int32Array(count);
  let n = 0;
  // each set bit, lowest first: its day is first + its position
  for (let w = 0; w < words.length; w++) {
    let word = words[w] | 0;
    while (word !== 0) {
      const lowest = word & -word;
      days[n++] = first + (w << 5) + (31 - Math.clz32(lowest));
      word ^= lowest;
    }
  }
  return days;
}
