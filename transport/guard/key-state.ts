// One key as the guard holds it in memory: its record, token bucket and today's usage.

import type { DayUsage } from './daily-quota.js';
import { type KeyRecord, PLANS, type Plan, type PlanName } from '../../engine/plans.js';
import { NO_DAY } from './quota-day.js';
import { capacityUnits, fillBucket, type BucketState } from './token-bucket.js';

/** One key as the guard keeps it: its record, bucket and today's usage. Callers only read it. */
export class KeyState implements BucketState, DayUsage {
  plan: Plan;
  org: string;
  created: string;
  disabled: boolean;
  hash: Uint8Array;
  units = 0;
  lastMs = 0;
  day = NO_DAY;
  dayLabel = '';
  used = 0;
  requests = 0;
  /** Today's 429 refusals, by code (counted where `admit` refuses: one increment, no allocation). */
  rateLimited = 0;
  quotaExhausted = 0;
  /** Queued for the next flush. */
  dirty = false;

  constructor(readonly id: string, rec: KeyRecord) {
    this.plan = PLANS[rec.plan];
    this.org = rec.org;
    this.created = rec.created;
    this.disabled = rec.disabled;
    this.hash = rec.hash;
    if (this.plan.rpm !== null) fillBucket(this, this.plan.rpm, 0); // a new key starts full
  }

  /**
   * Takes a refreshed record (a new plan, a rotated hash, disabled or enabled), keeping
   * today's usage: rows, requests and refusals belong to the key id, not to its plan. The
   * bucket keeps its tokens up to the new plan's capacity.
   */
  update(rec: KeyRecord): void {
    const plan = PLANS[rec.plan];
    if (plan !== this.plan && plan.rpm !== null) {
      const cap = capacityUnits(plan.rpm);
      if (this.plan.rpm === null || this.units > cap) this.units = cap;
    }
    this.plan = plan;
    this.org = rec.org;
    this.created = rec.created;
    this.disabled = rec.disabled;
    this.hash = rec.hash;
  }
}
