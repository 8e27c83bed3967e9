// The answer cache's doorkeeper: which request keys were asked once before, in a fixed table of
// fingerprints, so an answer is kept only on its second ask.

/**
 * A 53-bit hash of `text` (cyrb53: two multiplicative 32-bit lanes); fast on short strings
 * and spread well enough to pick a key's bucket and fingerprint.
 */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Request keys remembered as "asked once": a table of this many 32-bit fingerprints (256 KiB,
 * allocated once), in buckets of DOORKEEPER_WAYS, a key's bucket chosen by its hash. A key
 * takes an empty slot of its bucket, else the next one in turn, so a newer key makes an older
 * one forgotten (asked "once" again later) only once its bucket is full: keys asked in turn
 * that share a bucket are each kept on their second ask (with one slot per key, two sharing
 * it would forget each other forever; one key in 50 of 1,000 asked in turn did). Two keys
 * sharing bucket and fingerprint (about one pair in 4 billion) get the second kept on its
 * first ask. No key text is held, so the memory is the same whatever the keys' length or number.
 */
export const DOORKEEPER_SLOTS = 1 << 16;
export const DOORKEEPER_WAYS = 4;
const DOORKEEPER_BUCKETS = DOORKEEPER_SLOTS / DOORKEEPER_WAYS;

export class Doorkeeper {
  /** Fingerprints of keys asked once, by slot (DOORKEEPER_SLOTS); 0 is an empty slot. */
  private readonly askedOnce = new Uint32Array(DOORKEEPER_SLOTS);
  /** Which slot of a full bucket a new key takes (in turn). */
  private nextWay = 0;

  /** True when `key` was asked before (then forgotten: it is kept now), else remembers it and false. */
  askedBefore(key: string): boolean {
    const hash = hash53(key);
    const first = (hash & (DOORKEEPER_BUCKETS - 1)) * DOORKEEPER_WAYS;
    const fingerprint = ((hash / DOORKEEPER_BUCKETS) | 1) >>> 0; // 32 bits above the bucket's, never 0 (an empty slot)
    const slots = this.askedOnce;
    let empty = -1;
    for (let s = first; s < first + DOORKEEPER_WAYS; s++) {
      if (slots[s] === fingerprint) return ((slots[s] = 0), true);
      if (slots[s] === 0 && empty < 0) empty = s;
    }
    slots[empty >= 0 ? empty : first + (this.nextWay++ & (DOORKEEPER_WAYS - 1))] = fingerprint;
    return false;
  }
}
