// The per-request facade: key check, token bucket and daily quota, in memory and synchronous.

import { parseApiKey, secretMatches } from './api-key.js';
import { rollDay, rowsLeft, secondsToReset } from './daily-quota.js';
import { DIRTY_CLOSING, DIRTY_TODAY, KeySlots, KeySlotsFull } from './key-slots.js';
import { KeyState } from './key-state.js';
import { DEFAULT_PLANS, type KeyRecord, type Plan, type PlanName, type Plans } from '../../engine/plans.js';
import { dayLabel, QuotaDay } from './quota-day.js';
import type { SharedLimits } from './shared-limits.js';
import { retryAfterSeconds, secondsToFull, take, wholeTokens } from './token-bucket.js';

export { KeySlots, KeyState };

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

/** The `/quota` record: the spec's fields plus `reset_at`, and the export allowance (null figures: unlimited). */
export interface QuotaRecord {
  plan: PlanName;
  org_name: string;
  daily_quota: number | null;
  used: number;
  remaining: number | null;
  requests_today: number;
  reset_at: string;
  export_quota: number | null;
  export_used: number;
  export_remaining: number | null;
}

/** Raised by `setKeys` (after the rest of the table applied) for keys whose plan is not in force: they are refused (401) until it is. */
export class UnknownPlans extends Error {
  constructor(
    readonly keys: readonly { id: string; plan: PlanName }[],
    plans: Plans,
  ) {
    const first = keys[0];
    const more = keys.length > 1 ? ` (and ${keys.length - 1} more key${keys.length > 2 ? 's' : ''})` : '';
    super(
      `key ${first.id} has plan '${first.plan}', which is not in force${plans.source === null ? ' (no PLANS_FILE)' : ` (PLANS_FILE ${plans.source})`}: the key is refused until its plan is changed or defined${more}`,
    );
  }
}

/**
 * Receives one key's usage of one day at a flush: rows, requests and 429 refusals (rate,
 * quota) of `day`, the epoch ms of the key's last authenticated request (0: none since start),
 * and the rows it exported that day.
 */
export type UsageVisitor = (
  id: string,
  day: string,
  used: number,
  requests: number,
  rateLimited: number,
  quotaExhausted: number,
  lastUsedMs: number,
  exported: number,
) => void;

/**
 * Key check and limits of every request, with no disk access and no allocation on the hot
 * path. The key table arrives through `setKeys` (the state sync refreshes it off the hot
 * path); usage leaves through `drainDirty`. Check order: authenticate → admit (rate, then
 * quota) → serve → charge.
 *
 * Buckets and usage live in `slots`, which serving threads share: the guard of the thread
 * that loads the key table owns them (assigns slots, clamps buckets, drains usage); the
 * guard of another serving thread attaches to the same slots and takes the table with the
 * owner's assignments (`setKeys(records, assignments)`).
 */
/** What charging an export to the key's export allowance found: whether it fit, the rows left after (null: unlimited), and when the day resets. */
export interface ExportCharge {
  fits: boolean;
  remaining: number | null;
  /** Seconds until the quota day resets (when it did not fit). */
  retryAfter: number;
}

/** A key's counts of one day, as stored: rows used and requests, and (absent: none) its 429 refusals and the rows it exported. */
export interface UsageCounts {
  used: number;
  requests: number;
  rateLimited?: number;
  quotaExhausted?: number;
  exported?: number;
}

export class Guard {
  private readonly clock: QuotaDay;
  private readonly byId = new Map<string, KeyState>();
  /**
   * Presented key text → verified key, so a known key is hashed once, not per request. Only
   * verified keys enter, so it holds at most one entry per key; a hit needs the whole key.
   */
  private readonly verified = new Map<string, KeyState>();
  private readonly verdict: Verdict = {
    ok: true,
    code: null,
    retryAfter: 0,
    rateLimit: null,
    rateRemaining: null,
    rateReset: null,
    quotaLimit: null,
    quotaRemaining: null,
  };

  /**
   * @param timeZone IANA zone of the daily reset (QUOTA_TZ); throws RangeError if unknown.
   * @param shared limits shared with other instances (Redis): limited keys are then admitted
   *   and charged there (`admitShared`, `chargeShared`), internal keys still here.
   * @param attach another thread's slots (this guard then serves, never loads or drains).
   * @param options.capacity keys the slots hold (a new guard's; default DEFAULT_KEY_SLOTS).
   * @param options.plans the plans in force (PLANS_FILE; default the built-in table): each key's is resolved when the table is taken.
   */
  constructor(
    timeZone = 'UTC',
    readonly shared: SharedLimits | null = null,
    attach: SharedArrayBuffer | null = null,
    options: { capacity?: number; plans?: Plans } = {},
  ) {
    this.clock = new QuotaDay(timeZone);
    this.slots = attach === null ? KeySlots.create(options.capacity) : KeySlots.attach(attach);
    this.owner = attach === null;
    this.plans = options.plans ?? DEFAULT_PLANS;
  }

  readonly slots: KeySlots;
  /** The plans in force: what every key's limits are read from, and what /metrics and the dashboard list. */
  readonly plans: Plans;
  private readonly owner: boolean;

  /** True when `key`'s limits live in the shared store: admit and charge it with `admitShared` and `chargeShared`. */
  isShared(key: KeyState): boolean {
    return this.shared !== null && (key.plan.rpm !== null || key.plan.dailyQuota !== null);
  }

  /** Number of keys in the table, disabled ones included. */
  get size(): number {
    return this.byId.size;
  }

  /**
   * Replaces the key table, resolving each key's plan in the plans in force (once per key,
   * not per request). Bucket and usage of a key that stays are kept; verified keys are
   * re-checked. A serving thread's guard passes the owner's slot `assignments` with it.
   * A key without a slot, or whose plan is not in force, is left out (refused 401); the rest
   * applies, and the owner's guard then throws KeySlotsFull or UnknownPlans to report it.
   */
  setKeys(records: Iterable<KeyRecord>, assignments?: Iterable<[string, number]>): void {
    try {
      this.takeKeys(records, assignments);
    } finally {
      for (const listener of this.keyListeners) listener(); // a disabled or rotated key's streams close now
    }
  }

  private readonly keyListeners = new Set<() => void>();

  /** `listener` runs after each new key table is taken (the streams re-check their keys); returns how to stop it. */
  onKeysChanged(listener: () => void): () => void {
    this.keyListeners.add(listener);
    return () => void this.keyListeners.delete(listener);
  }

  private takeKeys(records: Iterable<KeyRecord>, assignments?: Iterable<[string, number]>): void {
    if (assignments !== undefined) this.slots.adopt(assignments);
    const seen = new Set<string>();
    let full: KeySlotsFull | null = null;
    const unknown: KeyRecord[] = [];
    for (const rec of records) {
      const plan: Plan | undefined = this.plans.get(rec.plan);
      if (plan === undefined) {
        unknown.push(rec);
        continue;
      }
      const s = this.byId.get(rec.id);
      if (s !== undefined) {
        s.update(rec, plan, this.owner);
      } else {
        let slot = this.slots.slotOf(rec.id);
        if (!this.owner && slot === undefined) continue; // not assigned yet: the owner's next table brings it
        const fresh = slot === undefined;
        try {
          slot ??= this.slots.assign(rec.id);
        } catch (error) {
          if (!(error instanceof KeySlotsFull)) throw error;
          full = error; // this key is refused (401); the rest of the table still applies
          continue;
        }
        this.byId.set(rec.id, new KeyState(rec.id, rec, plan, this.slots, slot, this.owner && fresh));
      }
      seen.add(rec.id);
    }
    for (const id of this.byId.keys()) if (!seen.has(id)) this.byId.delete(id);
    this.verified.clear(); // a rotated or disabled key must not stay verified
    // Told to the state sync, which logs it; another thread's guard leaves the same keys out silently.
    if (full !== null) throw full;
    if (unknown.length > 0 && this.owner) throw new UnknownPlans(unknown, this.plans);
  }

  /** The slot assignments so far, for serving threads' guards. */
  assignments(): [string, number][] {
    return this.slots.assignments();
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
   * Counts the request and checks rate, then (when it charges rows) quota. `rows` of an answer
   * already known (a kept one) are charged in the same step when admitted; the verdict's
   * `quotaRemaining` is what was left before them, as `admitShared`'s. The returned object is
   * reused: read it before the next `admit` on this guard.
   */
  admit(key: KeyState, nowMs: number, chargesRows: boolean, rows = 0): Verdict {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    key.requests++;
    if (nowMs > key.lastUsedMs) key.lastUsedMs = nowMs; // another thread may have stamped a later instant
    const { rpm, dailyQuota } = key.plan;
    let refusal: RefusalCode | null = rpm !== null && !take(key, rpm, nowMs) ? 'rate_limited' : null;
    if (refusal === null && chargesRows && dailyQuota !== null && rowsLeft(dailyQuota, key.used) === 0)
      refusal = 'quota_exhausted';
    if (refusal === 'rate_limited') key.rateLimited++;
    else if (refusal === 'quota_exhausted') key.quotaExhausted++;
    const v = this.fill(this.verdict, key, refusal, nowMs);
    if (refusal === null && rows > 0) key.used += rows;
    slots.markDirty(key.slot);
    slots.unlock(key.slot);
    return v;
  }

  /**
   * `admit` for a key whose limits are shared (`isShared`): one round trip to the shared
   * store, whose answer becomes the key's figures here too (for /quota and the usage flush).
   * Resolves to a new Verdict; rejects with LimitsUnavailable when the store cannot answer.
   * `rows` of an answer already known (a kept one) are charged in the same round trip when
   * admitted: `X-Quota-Remaining` is then `max(0, quotaRemaining - rows)`, as with `admit`.
   */
  async admitShared(key: KeyState, nowMs: number, chargesRows: boolean, rows = 0): Promise<Verdict> {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    if (nowMs > key.lastUsedMs) (key.lastUsedMs = nowMs), slots.markDirty(key.slot); // authenticated, whatever the shared store answers (flushed even if it cannot)
    const day = key.day;
    const label = key.dayLabel;
    const seen = { used: key.used, requests: key.requests };
    slots.unlock(key.slot);
    const r = await this.shared!.admit({
      id: key.id,
      day: label,
      rpm: key.plan.rpm,
      dailyQuota: key.plan.dailyQuota,
      chargesRows,
      seen,
      rows,
    });
    const refusal = r.refused === 1 ? 'rate_limited' : r.refused === 2 ? 'quota_exhausted' : null;
    slots.lock(key.slot);
    if (key.day === day) {
      if (r.units >= 0) key.units = r.units;
      key.used = r.refused === 0 ? r.used + rows : r.used;
      key.requests = r.requests;
      key.rateLimited = r.rateLimited;
      key.quotaExhausted = r.quotaExhausted;
    }
    const v = this.fill({ ...this.verdict }, key, refusal, nowMs);
    slots.markDirty(key.slot);
    slots.unlock(key.slot);
    // The figures of this request, not whatever a concurrent one left in `key`.
    if (v.quotaLimit !== null) v.quotaRemaining = rowsLeft(v.quotaLimit, r.used);
    return v;
  }

  /** The verdict's header figures from `key`'s bucket and usage. */
  private fill(v: Verdict, key: KeyState, refusal: RefusalCode | null, nowMs: number): Verdict {
    const { rpm, dailyQuota } = key.plan;
    v.ok = refusal === null;
    v.code = refusal;
    v.retryAfter = refusal === 'quota_exhausted' ? secondsToReset(this.clock, nowMs) : 0;
    if (rpm === null) {
      v.rateLimit = v.rateRemaining = v.rateReset = null;
    } else {
      v.rateLimit = rpm;
      v.rateRemaining = wholeTokens(key);
      v.rateReset = secondsToFull(key, rpm);
      if (refusal === 'rate_limited') v.retryAfter = retryAfterSeconds(key, rpm);
    }
    if (dailyQuota === null) v.quotaLimit = v.quotaRemaining = null;
    else (v.quotaLimit = dailyQuota), (v.quotaRemaining = rowsLeft(dailyQuota, key.used));
    return v;
  }

  /** Charges a served response's rows; returns `X-Quota-Remaining` after the charge (null: no quota). */
  charge(key: KeyState, rows: number, nowMs: number): number | null {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    if (rows > 0) (key.used += rows), slots.markDirty(key.slot);
    const used = key.used;
    slots.unlock(key.slot);
    const q = key.plan.dailyQuota;
    return q === null ? null : rowsLeft(q, used);
  }

  /**
   * `charge` for a key whose limits are shared: the rows reach the shared store before the
   * answer is sent, so the key's next request, on any instance, sees them. Resolves to
   * `X-Quota-Remaining` after the charge; rejects with LimitsUnavailable.
   */
  async chargeShared(key: KeyState, rows: number, nowMs: number): Promise<number | null> {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const label = key.dayLabel;
    slots.unlock(key.slot);
    const used = await this.shared!.charge(key.id, label, rows);
    slots.lock(key.slot);
    if (used > key.used) key.used = used;
    slots.markDirty(key.slot);
    slots.unlock(key.slot);
    const q = key.plan.dailyQuota;
    return q === null ? null : rowsLeft(q, used);
  }

  /**
   * Charges an export's `rows` to the key's daily export allowance (the plan's `exportRows`,
   * counted apart from the row quota) before its first byte, only when they fit in what is left
   * (checked and charged under the key's lock, so two at once cannot both take the last rows);
   * one that does not fit is counted as a quota refusal. A plan whose allowance is 0 is refused
   * before this (`not_in_plan`).
   */
  chargeExport(key: KeyState, rows: number, nowMs: number): ExportCharge {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const allowance = key.plan.exportRows;
    const fits = allowance === null || rows <= rowsLeft(allowance, key.exported);
    if (fits) key.exported += rows;
    else key.quotaExhausted++;
    const exported = key.exported;
    slots.markDirty(key.slot);
    slots.unlock(key.slot);
    return this.exportCharge(fits, allowance, exported, nowMs);
  }

  /**
   * Gives back `rows` charged to the export allowance on `day` for an export the server did not
   * send whole (it cut it): taken off that day's count while the day lasts (a day that ended
   * keeps its count), in the shared store too when the key's limits are shared.
   */
  refundExport(key: KeyState, rows: number, day: string, nowMs: number): void {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const today = key.dayLabel === day;
    if (today) (key.exported = Math.max(0, key.exported - rows)), slots.markDirty(key.slot);
    slots.unlock(key.slot);
    // Redis gone: its count is lost with it.
    if (today && this.isShared(key)) this.shared!.refund(key.id, day, rows, 'exported').catch(() => {});
  }

  /** `chargeExport` for a key whose limits are shared: checked and charged in one script, atomic across instances. */
  async chargeExportShared(key: KeyState, rows: number, nowMs: number): Promise<ExportCharge> {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const label = key.dayLabel;
    const seen = key.exported;
    slots.unlock(key.slot);
    const allowance = key.plan.exportRows;
    const answer = await this.shared!.charge(key.id, label, rows, allowance, 'exported', seen);
    const fits = answer >= 0;
    const exported = fits ? answer : -answer - 1;
    slots.lock(key.slot);
    if (exported > key.exported) key.exported = exported;
    if (!fits) key.quotaExhausted++;
    slots.markDirty(key.slot);
    slots.unlock(key.slot);
    return this.exportCharge(fits, allowance, exported, nowMs);
  }

  private exportCharge(fits: boolean, allowance: number | null, exported: number, nowMs: number): ExportCharge {
    return {
      fits,
      remaining: allowance === null ? null : rowsLeft(allowance, exported),
      retryAfter: fits ? 0 : secondsToReset(this.clock, nowMs),
    };
  }

  /**
   * Takes one of the key's stream connections when its plan allows one more (exact over every
   * serving thread: the count lives in the key's shared slot). False: the key holds its plan's
   * `connections` already. Each true is given back once with `closeStream`.
   */
  openStream(key: KeyState): boolean {
    const slots = this.slots;
    slots.lock(key.slot);
    const limit = key.plan.connections;
    const ok = limit === null || key.connections < limit;
    if (ok) key.connections++;
    slots.unlock(key.slot);
    return ok;
  }

  /** Gives back a connection `openStream` took. */
  closeStream(key: KeyState): void {
    const slots = this.slots;
    slots.lock(key.slot);
    if (key.connections > 0) key.connections--;
    slots.unlock(key.slot);
  }

  /**
   * Takes one of the key's exports under way when fewer than `limit` are (exact over every serving
   * thread: the count lives in the key's shared slot; an internal key is not limited). False: it has
   * `limit` under way already. Each true is given back once with `closeExport`.
   */
  openExport(key: KeyState, limit: number): boolean {
    const slots = this.slots;
    slots.lock(key.slot);
    const ok = key.plan.exportRows === null || key.exports < limit;
    if (ok) key.exports++;
    slots.unlock(key.slot);
    return ok;
  }

  /** Gives back an export `openExport` took. */
  closeExport(key: KeyState): void {
    const slots = this.slots;
    slots.lock(key.slot);
    if (key.exports > 0) key.exports--;
    slots.unlock(key.slot);
  }

  /** Stream connections key `id` holds open now over every serving thread (0 for a key not in the table). */
  streamConnections(id: string): number {
    const s = this.byId.get(id);
    if (s === undefined) return 0;
    this.slots.lock(s.slot);
    const n = s.connections;
    this.slots.unlock(s.slot);
    return n;
  }

  /**
   * Charges the `rows` of a pushed message (a stream's `bars` or `screen`) when the key has rows
   * left today, as a REST answer started with rows left is charged whole; false (nothing charged)
   * when none is left: the message is withheld from this subscriber.
   */
  chargePush(key: KeyState, rows: number, nowMs: number): boolean {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const q = key.plan.dailyQuota;
    const ok = q === null || rowsLeft(q, key.used) > 0;
    if (ok && rows > 0) (key.used += rows), slots.markDirty(key.slot);
    slots.unlock(key.slot);
    return ok;
  }

  /** `chargePush` for a key whose limits are shared: checked and charged in one script, atomic across instances; rejects with LimitsUnavailable. */
  async chargePushShared(key: KeyState, rows: number, nowMs: number): Promise<boolean> {
    const slots = this.slots;
    slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const label = key.dayLabel;
    const day = key.day;
    slots.unlock(key.slot);
    const answer = await this.shared!.push(key.id, label, rows, key.plan.dailyQuota);
    const ok = answer >= 0;
    const used = ok ? answer : -answer - 1;
    slots.lock(key.slot);
    if (key.day === day && used > key.used) (key.used = used), slots.markDirty(key.slot);
    slots.unlock(key.slot);
    return ok;
  }

  /** The `/quota` record of a key (allocates; not for the per-request path). */
  quota(key: KeyState, nowMs: number): QuotaRecord {
    this.slots.lock(key.slot);
    rollDay(key, this.clock, nowMs);
    const q = key.plan.dailyQuota;
    const e = key.plan.exportRows;
    const record: QuotaRecord = {
      plan: key.plan.name,
      org_name: key.org,
      daily_quota: q,
      used: key.used,
      remaining: q === null ? null : rowsLeft(q, key.used),
      requests_today: key.requests,
      reset_at: this.clock.resetAt,
      export_quota: e,
      export_used: key.exported,
      export_remaining: e === null ? null : rowsLeft(e, key.exported),
    };
    this.slots.unlock(key.slot);
    return record;
  }

  /** `YYYY-MM-DD` of the quota day at `nowMs`: the day usage is stored under. */
  dayLabel(nowMs: number): string {
    this.clock.day(nowMs);
    return this.clock.label;
  }

  /** Sets a key's counts for the day at `nowMs` from storage (start-up only: it overwrites). */
  seedUsage(id: string, counts: UsageCounts, nowMs: number): boolean {
    const s = this.byId.get(id);
    if (s === undefined) return false;
    this.slots.lock(s.slot);
    rollDay(s, this.clock, nowMs);
    s.used = counts.used;
    s.requests = counts.requests;
    s.rateLimited = counts.rateLimited ?? 0;
    s.quotaExhausted = counts.quotaExhausted ?? 0;
    s.exported = counts.exported ?? 0;
    this.slots.unlock(s.slot);
    return true;
  }

  /**
   * Hands every key changed since the last drain (by any thread) to `visit`, with its last
   * use: a day that ended since (its last counts, see `KeyState.closeDay`) first, then the
   * current day. Returns how many keys. Only the owner drains: one writer persists usage.
   */
  drainDirty(visit: UsageVisitor): number {
    let n = 0;
    const slots = this.slots;
    for (const s of this.byId.values()) {
      slots.lock(s.slot);
      const bits = slots.takeDirty(s.slot);
      if (bits === 0) {
        slots.unlock(s.slot);
        continue;
      }
      const lastUsedMs = s.lastUsedMs;
      const closing = (bits & DIRTY_CLOSING) !== 0 ? s.closingCounts() : null;
      const day = s.dayLabel;
      const { used, requests, rateLimited, quotaExhausted, exported } = s;
      slots.unlock(s.slot);
      if (closing !== null) {
        const [d, u, r, rl, qe, ex] = closing;
        visit(s.id, dayLabel(d), u, r, rl, qe, lastUsedMs, ex);
      }
      if ((bits & DIRTY_TODAY) !== 0)
        visit(s.id, day, used, requests, rateLimited, quotaExhausted, lastUsedMs, exported);
      n++;
    }
    return n;
  }
}
