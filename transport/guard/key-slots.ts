// Every key's bucket and today's usage in one SharedArrayBuffer, so that serving threads share
// them: a slot per key, each guarded by a spin lock (Atomics) held for a few arithmetic steps.

/**
 * The figures of one slot, as Float64 offsets (24 per slot: 192 bytes, three cache lines). The
 * first line is what every request touches (bucket, today's counts, last use); the second
 * holds a closing day's counts, written once a day at most (see `KeyState.closeDay`).
 */
export const FIELD = {
  units: 0,
  lastMs: 1,
  day: 2,
  used: 3,
  requests: 4,
  rateLimited: 5,
  quotaExhausted: 6,
  /** Epoch ms of the key's last authenticated request, by any thread (0: none since start). */
  lastUsedMs: 7,
  /** The day before `day` and its counts, while they still have to be flushed. */
  closingDay: 8,
  closingUsed: 9,
  closingRequests: 10,
  closingRateLimited: 11,
  closingQuotaExhausted: 12,
  /** Rows exported today (the export allowance's count, apart from `used`), and the closing day's. */
  exported: 13,
  closingExported: 14,
  /** WebSocket connections the key holds open now, over every serving thread (never flushed: a start begins at none). */
  connections: 15,
  /** Exports the key has under way now, over every serving thread (never flushed: a start begins at none). */
  exports: 16,
} as const;
const STRIDE = 24;
/** Int32 flags per slot: the lock, and what changed since the last flush (DIRTY_* bits). */
const LOCK = 0;
const DIRTY = 1;
const FLAGS = 2;

/** Bits of a slot's change flag: today's counts changed; a closing day's counts wait for a flush. */
export const DIRTY_TODAY = 1;
export const DIRTY_CLOSING = 2;

/** Slots when no figure is given: far above today's key counts; the memory is touched only as keys arrive. */
export const DEFAULT_KEY_SLOTS = 65_536;

/** Raised when every slot is taken (the key table outgrew the slots made at start). */
export class KeySlotsFull extends Error {}

/**
 * The shared figures of up to `capacity` keys. The thread that loads the key table assigns
 * slots (`assign`) and tells the others which id has which (`slotOf` after `adopt`); any
 * thread reads and writes a slot's figures between `lock` and `unlock`.
 */
export class KeySlots {
  readonly figures: Float64Array;
  readonly flags: Int32Array;
  readonly capacity: number;
  private readonly byId = new Map<string, number>();

  private constructor(readonly buffer: SharedArrayBuffer) {
    this.capacity = buffer.byteLength / (STRIDE * 8 + FLAGS * 4);
    this.figures = new Float64Array(buffer, 0, this.capacity * STRIDE);
    this.flags = new Int32Array(buffer, this.capacity * STRIDE * 8, this.capacity * FLAGS);
  }

  static create(capacity = DEFAULT_KEY_SLOTS): KeySlots {
    return new KeySlots(new SharedArrayBuffer(capacity * (STRIDE * 8 + FLAGS * 4)));
  }

  /** The same slots in another thread (`buffer` posted from the creating one). */
  static attach(buffer: SharedArrayBuffer): KeySlots {
    return new KeySlots(buffer);
  }

  /** The slot of `id`, assigning the next free one to an id not seen before (the loading thread only). */
  assign(id: string): number {
    let slot = this.byId.get(id);
    if (slot !== undefined) return slot;
    slot = this.byId.size;
    if (slot >= this.capacity)
      throw new KeySlotsFull(`no slot left for key ${id}: ${this.capacity} keys at most per start`);
    this.byId.set(id, slot);
    return slot;
  }

  /** Takes another thread's assignments (id → slot). */
  adopt(assignments: Iterable<[string, number]>): void {
    for (const [id, slot] of assignments) this.byId.set(id, slot);
  }

  /** Every assignment so far, to post to other threads. */
  assignments(): [string, number][] {
    return [...this.byId];
  }

  slotOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** Offset of `slot`'s first figure in `figures`. */
  base(slot: number): number {
    return slot * STRIDE;
  }

  /**
   * Spins until this thread holds `slot`. Holders keep it for a handful of arithmetic
   * steps and never across an await, so a spin is shorter than a wait would be (and the
   * main thread may not Atomics.wait).
   */
  lock(slot: number): void {
    const at = slot * FLAGS + LOCK;
    while (Atomics.compareExchange(this.flags, at, 0, 1) !== 0);
  }

  unlock(slot: number): void {
    Atomics.store(this.flags, slot * FLAGS + LOCK, 0);
  }

  /** Marks `slot`'s counts of today changed; call while holding it (the unlock publishes the mark). */
  markDirty(slot: number, bits = DIRTY_TODAY): void {
    this.flags[slot * FLAGS + DIRTY] |= bits;
  }

  /** The change bits of `slot` (0: unchanged since the last `takeDirty`); call while holding it. */
  dirtyBits(slot: number): number {
    return this.flags[slot * FLAGS + DIRTY];
  }

  /** The change bits of `slot` since the last call (DIRTY_TODAY, DIRTY_CLOSING), and clears them; call while holding it. */
  takeDirty(slot: number): number {
    const at = slot * FLAGS + DIRTY;
    const bits = this.flags[at];
    if (bits !== 0) this.flags[at] = 0;
    return bits;
  }
}
