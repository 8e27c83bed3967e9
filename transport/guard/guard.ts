// The per-request facade: key check, token bucket and daily quota, in memory and synchronous.

import { parseApiKey, secretMatches } from './api-key.js';
import { rollDay, rowsLeft, secondsToReset } from './daily-quota.js';
import { KeyState } from './key-state.js';
import type { KeyRecord, PlanName } from '../../engine/plans.js';
import { QuotaDay } from './quota-day.js';
import { retryAfterSeconds, secondsToFull, take, wholeTokens } from './token-bucket.js';

export { KeyState };

/** Why a request was refused: the problem `code` of a 429. */
export type RefusalCode = 'rate_limited' | 'quota_exhausted';

/**
 * The outcome of `admit` with its header figures. `null` figures mean "send no header":
 * internal keys have no rate or quota figures at all.
 */
export interface Verdict {
  ok: boolean;
  code: RefusalCode | null;
  /** `Retry-After` seconds of a refusal (≥ 1), 0 when ok. */
  retryAfter: number;
  /** `X-RateLimit-Limit`: requests per minute. */
  rateLimit: number | null;
  /** `X-RateLimit-Remaining`: whole tokens left after this request. */
  rateRemaining: number | null;
  /** `X-RateLimit-Reset`: whole seconds until the bucket is full again (0 when full). */
  rateReset: number | null;
  /** `X-Quota-Limit`: rows a day. */
  quotaLimit: number | null;
  /** `X-Quota-Remaining` before this request's charge (final for refusals and `/quota`). */
  quotaRemaining: number | null;
}

/** The `/quota` record: the spec's fields plus `reset_at`. */
export interface QuotaRecord {
  plan: PlanName;
  org_name: string;
  daily_quota: number | null;
  used: number;
  remaining: number | null;
  requests_today: number;
  reset_at: string;
}

/** Receives one key's usage at a flush: rows, requests and 429 refusals (rate, quota) of `day`. */
export type UsageVisitor = (id: string, day: string, used: number, requests: number, rateLimited: number, quotaExhausted: number) => void;

/**
 * Key check and limits of every request, with no disk access and no allocation on the hot
 * path. The key table arrives through `setKeys` (the state sync refreshes it off the hot
 * path); usage leaves through `drainDirty`. Check order: authenticate → admit (rate, then
 * quota) → serve → charge.
 */
export class Guard {
  private readonly clock: QuotaDay;
  private readonly byId = new Map<string, KeyState>();
  /**
   * Presented key text → verified key, so a known key is hashed once, not per request. Only
   * verified keys enter, so it holds at most one entry per key; a hit needs the whole key.
   */
  private readonly verified = new Map<string, KeyState>();
  private dirty: KeyState[] = [];
  private dirtyCount = 0;
  private readonly verdict: Verdict = {
    ok: true, code: null, retryAfter: 0, rateLimit: null, rateRemaining: null, rateReset: null, quotaLimit: null, quotaRemaining: null,
  };

  /** @param timeZone IANA zone of the daily reset (QUOTA_TZ); throws RangeError if unknown. */
  constructor(timeZone = 'UTC') {
    this.clock = new QuotaDay(timeZone);
  }

  /** Number of keys in the table, disabled ones included. */
  get size(): number {
    return this.byId.size;
  }

  /** Replaces the key table. Bucket and usage of a key that stays are kept; verified keys are re-checked. */
  setKeys(records: Iterable<KeyRecord>): void {
    const seen = new Set<string>();
    for (const rec of records) {
      seen.add(rec.id);
      const s = this.byId.get(rec.id);
      if (s === undefined) this.byId.set(rec.id, new KeyState(rec.id, rec));
      else s.update(rec);
    }
    for (const id of this.byId.keys()) if (!seen.has(id)) this.byId.delete(id);
    this.verified.clear(); // a rotated or disabled key must not stay verified
  }

  /** The enabled key `presented` names, or null (401). Hashes only a key not seen since the last `setKeys`. */
  authenticate(presented: string | null | undefined): KeyState | null {
    if (!presented) return null;
    const hit = this.verified.get(presented);
    return hit !== undefined ? hit : this.verifySlow(presented);
  }

  private verifySlow(presented: string): KeyState | null {
    const parts = parseApiKey(presented);
    if (parts === null) return null;
    const s = this.byId.get(parts.id);
    if (s === undefined || s.disabled || !secretMatches(parts.secret, s.hash)) return null;
    this.verified.set(presented, s); // bounded: one entry per valid key
    return s;
  }

  /**
   * Counts the request and checks rate, then (when it charges rows) quota. The returned
   * object is reused: read it before the next `admit` on this guard.
   */
  admit(key: KeyState, nowMs: number, chargesRows: boolean): Verdict {
    const v = this.verdict;
    rollDay(key, this.clock, nowMs);
    key.requests++;
    this.markDirty(key);
    v.ok = true;
    v.code = null;
    v.retryAfter = 0;
    const { rpm, dailyQuota } = key.plan;
    if (rpm === null) {
      v.rateLimit = v.rateRemaining = v.rateReset = null;
    } else {
      const took = take(key, rpm, nowMs);
      v.rateLimit = rpm;
      v.rateRemaining = wholeTokens(key);
      v.rateReset = secondsToFull(key, rpm);
      if (!took) {
        v.ok = false;
        v.code = 'rate_limited';
        v.retryAfter = retryAfterSeconds(key, rpm);
        key.rateLimited++;
      }
    }
    if (dailyQuota === null) {
      v.quotaLimit = v.quotaRemaining = null;
    } else {
      const left = rowsLeft(dailyQuota, key.used);
      v.quotaLimit = dailyQuota;
      v.quotaRemaining = left;
      if (v.ok && chargesRows && left === 0) {
        v.ok = false;
        v.code = 'quota_exhausted';
        v.retryAfter = secondsToReset(this.clock, nowMs);
        key.quotaExhausted++;
      }
    }
    return v;
  }

  /** Charges a served response's rows; returns `X-Quota-Remaining` after the charge (null: no quota). */
  charge(key: KeyState, rows: number, nowMs: number): number | null {
    rollDay(key, this.clock, nowMs);
    if (rows > 0) {
      key.used += rows;
      this.markDirty(key);
    }
    const q = key.plan.dailyQuota;
    return q === null ? null : rowsLeft(q, key.used);
  }

  /** The `/quota` record of a key (allocates; not for the per-request path). */
  quota(key: KeyState, nowMs: number): QuotaRecord {
    rollDay(key, this.clock, nowMs);
    const q = key.plan.dailyQuota;
    return {
      plan: key.plan.name,
      org_name: key.org,
      daily_quota: q,
      used: key.used,
      remaining: q === null ? null : rowsLeft(q, key.used),
      requests_today: key.requests,
      reset_at: this.clock.resetAt,
    };
  }

  /** `YYYY-MM-DD` of the quota day at `nowMs`: the day usage is stored under. */
  dayLabel(nowMs: number): string {
    this.clock.day(nowMs);
    return this.clock.label;
  }

  /** Sets a key's counts for the day at `nowMs` from storage (start-up only: it overwrites). */
  seedUsage(id: string, used: number, requests: number, nowMs: number, rateLimited = 0, quotaExhausted = 0): boolean {
    const s = this.byId.get(id);
    if (s === undefined) return false;
    rollDay(s, this.clock, nowMs);
    s.used = used;
    s.requests = requests;
    s.rateLimited = rateLimited;
    s.quotaExhausted = quotaExhausted;
    return true;
  }

  /** Hands every key changed since the last drain to `visit` and forgets it; returns how many. */
  drainDirty(visit: UsageVisitor): number {
    const n = this.dirtyCount;
    for (let i = 0; i < n; i++) {
      const s = this.dirty[i];
      s.dirty = false;
      visit(s.id, s.dayLabel, s.used, s.requests, s.rateLimited, s.quotaExhausted);
    }
    this.dirtyCount = 0;
    return n;
  }

  private markDirty(s: KeyState): void {
    if (s.dirty) return;
    s.dirty = true;
    // Writing into a slot that exists allocates nothing once the list has grown.
    this.dirty[this.dirtyCount++] = s;
  }
}
