// One key as a thread's guard holds it: its record here, its bucket and today's usage in a slot
// shared by every serving thread (key-slots.ts).

import type { DayUsage } from './daily-quota.js';
import { DIRTY_CLOSING, DIRTY_TODAY, FIELD, type KeySlots } from './key-slots.js';
import type { KeyRecord, Plan } from '../../engine/plans.js';
import { dayLabel, NO_DAY } from './quota-day.js';
import { capacityUnits, fillBucket, type BucketState } from './token-bucket.js';

/**
 * A key's record (per thread) over its shared figures. Read and write the figures only while
 * holding the slot (`slots.lock(slot)`): another thread may be serving the same key.
 */
export class KeyState implements BucketState, DayUsage {
  plan: Plan;
  org: string;
  created: string;
  disabled: boolean;
  hash: Uint8Array;
  private readonly f: Float64Array;
  private readonly at: number;
  private labelDay = NO_DAY;
  private label = '';

  /**
   * `plan`: the record's plan, resolved in the plans in force. `fresh`: the slot is new (the
   * thread that assigned it), so it starts as a new key: a full bucket, no usage.
   */
  constructor(
    readonly id: string,
    rec: KeyRecord,
    plan: Plan,
    readonly slots: KeySlots,
    readonly slot: number,
    fresh: boolean,
  ) {
    this.plan = plan;
    this.org = rec.org;
    this.created = rec.created;
    this.disabled = rec.disabled;
    this.hash = rec.hash;
    this.f = slots.figures;
    this.at = slots.base(slot);
    if (fresh) {
      this.day = NO_DAY;
      if (this.plan.rpm !== null) fillBucket(this, this.plan.rpm, 0);
    }
  }

  get units(): number {
    return this.f[this.at + FIELD.units];
  }
  set units(v: number) {
    this.f[this.at + FIELD.units] = v;
  }
  get lastMs(): number {
    return this.f[this.at + FIELD.lastMs];
  }
  set lastMs(v: number) {
    this.f[this.at + FIELD.lastMs] = v;
  }
  get day(): number {
    return this.f[this.at + FIELD.day];
  }
  set day(v: number) {
    this.f[this.at + FIELD.day] = v;
  }
  get used(): number {
    return this.f[this.at + FIELD.used];
  }
  set used(v: number) {
    this.f[this.at + FIELD.used] = v;
  }
  get requests(): number {
    return this.f[this.at + FIELD.requests];
  }
  set requests(v: number) {
    this.f[this.at + FIELD.requests] = v;
  }
  /** Today's 429 refusals, by code. */
  get rateLimited(): number {
    return this.f[this.at + FIELD.rateLimited];
  }
  set rateLimited(v: number) {
    this.f[this.at + FIELD.rateLimited] = v;
  }
  get quotaExhausted(): number {
    return this.f[this.at + FIELD.quotaExhausted];
  }
  set quotaExhausted(v: number) {
    this.f[this.at + FIELD.quotaExhausted] = v;
  }
  /** Rows exported today: the export allowance's count, kept apart from `used`. */
  get exported(): number {
    return this.f[this.at + FIELD.exported];
  }
  set exported(v: number) {
    this.f[this.at + FIELD.exported] = v;
  }
  /** Epoch ms of the key's last authenticated request, by any thread; 0 when none since start. */
  get lastUsedMs(): number {
    return this.f[this.at + FIELD.lastUsedMs];
  }
  set lastUsedMs(v: number) {
    this.f[this.at + FIELD.lastUsedMs] = v;
  }

  /** WebSocket connections the key holds open now, on every serving thread (read and written with the slot held). */
  get connections(): number {
    return this.f[this.at + FIELD.connections];
  }
  set connections(v: number) {
    this.f[this.at + FIELD.connections] = v;
  }

  /** Exports the key has under way now, on every serving thread (read and written with the slot held). */
  get exports(): number {
    return this.f[this.at + FIELD.exports];
  }
  set exports(v: number) {
    this.f[this.at + FIELD.exports] = v;
  }

  /**
   * Called by `rollDay` (slot held) just before a new day zeroes the counts: when the ending
   * day's counts changed since the last flush, they move to the slot's closing fields, so
   * the flush still writes that day's last figures (without this, the requests of the last
   * second before midnight would be lost whenever the key was used again before the next
   * flush). One closing day is held: a second rollover before a flush (two midnights within
   * one flush period) replaces it.
   */
  closeDay(): void {
    const bits = this.slots.dirtyBits(this.slot);
    if ((bits & DIRTY_TODAY) === 0) return;
    const f = this.f,
      at = this.at;
    f[at + FIELD.closingDay] = f[at + FIELD.day];
    f[at + FIELD.closingUsed] = f[at + FIELD.used];
    f[at + FIELD.closingRequests] = f[at + FIELD.requests];
    f[at + FIELD.closingRateLimited] = f[at + FIELD.rateLimited];
    f[at + FIELD.closingQuotaExhausted] = f[at + FIELD.quotaExhausted];
    f[at + FIELD.closingExported] = f[at + FIELD.exported];
    this.slots.takeDirty(this.slot);
    this.slots.markDirty(this.slot, DIRTY_CLOSING); // the new day is marked by the request that rolled it
  }

  /** The held closing day and its counts: [day, used, requests, rateLimited, quotaExhausted, exported] (slot held; when the slot's DIRTY_CLOSING bit was set). */
  closingCounts(): [number, number, number, number, number, number] {
    const f = this.f,
      at = this.at;
    return [
      f[at + FIELD.closingDay],
      f[at + FIELD.closingUsed],
      f[at + FIELD.closingRequests],
      f[at + FIELD.closingRateLimited],
      f[at + FIELD.closingQuotaExhausted],
      f[at + FIELD.closingExported],
    ];
  }

  /** `YYYY-MM-DD` of `day` (another thread may have rolled it: derived, not stored). */
  get dayLabel(): string {
    const d = this.day;
    if (d !== this.labelDay) (this.labelDay = d), (this.label = dayLabel(d));
    return this.label;
  }
  set dayLabel(label: string) {
    this.labelDay = this.day;
    this.label = label;
  }

  /**
   * Takes a refreshed record (a new plan, a rotated hash, disabled or enabled) and its plan
   * in force, keeping today's usage: rows, requests and refusals belong to the key id, not to
   * its plan. The bucket keeps its tokens up to the new plan's capacity (`clampBucket`: set
   * once, by the thread that loads the key table).
   */
  update(rec: KeyRecord, plan: Plan, clampBucket: boolean): void {
    if (clampBucket && plan !== this.plan && plan.rpm !== null) {
      const cap = capacityUnits(plan.rpm);
      this.slots.lock(this.slot);
      if (this.plan.rpm === null || this.units > cap) this.units = cap;
      this.slots.unlock(this.slot);
    }
    this.plan = plan;
    this.org = rec.org;
    this.created = rec.created;
    this.disabled = rec.disabled;
    this.hash = rec.hash;
  }
}
