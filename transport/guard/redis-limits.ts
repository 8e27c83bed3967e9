// The token bucket and daily quota (token-bucket.ts, daily-quota.ts) shared in Redis: each admit
// and each charge is one Lua script, atomic across every instance, timed by Redis's own clock so
// instances' clocks never disagree.

import type { Redis } from 'ioredis';
import {
  type AdmitReply,
  LimitsUnavailable,
  type SharedAdmit,
  type SharedLimits,
  type SharedRefusal,
} from './shared-limits.js';
import { UNITS_PER_TOKEN } from './token-bucket.js';

/**
 * KEYS: bucket, usage. ARGV: rpm (0: no rate), quota (-1: no quota), charges rows (1/0),
 * usage TTL (s), units per token, and the rows and requests this instance last saw for the
 * day: they seed a usage entry Redis does not hold (restarted without persistence), so a
 * lost Redis never hands a key its quota a second time; then rows to charge when admitted
 * (an answer known before the admit: one round trip instead of two), and the Redis time after which those rows
 * are no longer charged (0: none; see ROWS_DEADLINE_MS). The bucket arithmetic is token-bucket.ts's, in integer
 * units: full when absent (a new key, or idle longer than a refill), never more than the
 * plan's capacity (a lowered plan), no refill when the clock reads earlier than last time.
 * Returns refused (0 ok, 1 rate, 2 quota), units after, used before, requests,
 * rate_limited, quota_exhausted, Redis's time (ms), and 1 when the rows were charged.
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rpm = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local unit = tonumber(ARGV[5])
local refused = 0
local units = -1
if rpm > 0 then
  local cap = rpm * unit
  local b = redis.call('HMGET', KEYS[1], 'u', 't')
  units = tonumber(b[1])
  local last = tonumber(b[2])
  if units == nil or last == nil then units = cap; last = now end
  if now > last then units = units + (now - last) * rpm; last = now end
  if units > cap then units = cap end
  if units >= unit then units = units - unit else refused = 1 end
  redis.call('HSET', KEYS[1], 'u', units, 't', last)
  redis.call('PEXPIRE', KEYS[1], 120000)
end
if redis.call('EXISTS', KEYS[2]) == 0 and (tonumber(ARGV[6]) > 0 or tonumber(ARGV[7]) > 0) then
  redis.call('HSET', KEYS[2], 'used', ARGV[6], 'requests', ARGV[7])
end
local used = tonumber(redis.call('HGET', KEYS[2], 'used') or '0')
if refused == 0 and quota >= 0 and ARGV[3] == '1' and used >= quota then refused = 2 end
local deadline = tonumber(ARGV[9])
local charged = 0
if refused == 0 and tonumber(ARGV[8]) > 0 and (deadline == 0 or now <= deadline) then
  redis.call('HINCRBY', KEYS[2], 'used', ARGV[8])
  charged = 1
end
redis.call('HINCRBY', KEYS[2], 'requests', 1)
if refused == 1 then redis.call('HINCRBY', KEYS[2], 'rate_limited', 1) end
if refused == 2 then redis.call('HINCRBY', KEYS[2], 'quota_exhausted', 1) end
redis.call('EXPIRE', KEYS[2], ARGV[4])
local c = redis.call('HMGET', KEYS[2], 'requests', 'rate_limited', 'quota_exhausted')
return {refused, units, used, tonumber(c[1]), tonumber(c[2] or '0'), tonumber(c[3] or '0'), now, charged}
`;

/**
 * KEYS: usage. ARGV: rows, usage TTL (s), the Redis time after which nothing is charged (0:
 * none), the quota the rows must fit in (-1: charge whatever is used; an export's check), the
 * count charged (`used`, or `exported`: the export allowance's), and the count this instance
 * last saw (it seeds a count Redis does not hold). Returns the count after the charge, -1 when
 * it came too late to count, or -2 − count when the rows do not fit (nothing charged).
 */
const CHARGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local deadline = tonumber(ARGV[3])
if deadline > 0 and now > deadline then return -1 end
local field = ARGV[5]
if tonumber(ARGV[6]) > 0 and redis.call('HEXISTS', KEYS[1], field) == 0 then
  redis.call('HSET', KEYS[1], field, ARGV[6])
end
local quota = tonumber(ARGV[4])
if quota >= 0 then
  local before = tonumber(redis.call('HGET', KEYS[1], field) or '0')
  if before + tonumber(ARGV[1]) > quota then return -2 - before end
end
local used = redis.call('HINCRBY', KEYS[1], field, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return used
`;

/**
 * KEYS: usage. ARGV: rows, usage TTL (s), the quota (-1: none). A pushed message's rows, charged
 * when rows are left (as an answer started with rows left is charged whole). Returns the rows
 * used after the charge, or -1 − used when none were left (nothing charged).
 */
const PUSH = `
local quota = tonumber(ARGV[3])
local before = tonumber(redis.call('HGET', KEYS[1], 'used') or '0')
if quota >= 0 and before >= quota then return -1 - before end
local used = redis.call('HINCRBY', KEYS[1], 'used', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return used
`;

/** KEYS: usage. ARGV: rows, the count. Gives back rows a charge counted for an answer that was not sent. */
const REFUND = `
redis.call('HINCRBY', KEYS[1], ARGV[2], -tonumber(ARGV[1]))
`;

/** How long a request waits for Redis before its 503 limits_unavailable. */
export const GIVE_UP_MS = 500;

/**
 * How long after it is sent a charge may still count, in Redis time. A command still queued in
 * a stalled Redis runs when it resumes, after the request was answered 503: past this deadline
 * it counts nothing. A charge that did count but whose reply came after the give-up (this
 * process's event loop late, say) is refunded when the reply arrives (the connection's own
 * timeout, loaders/state/redis-connect.ts, is longer, so such a reply is still heard).
 */
export const ROWS_DEADLINE_MS = 300;

/** Days a day's usage stays in Redis: longer than the 31 the state folder keeps. */
const USAGE_TTL_SECONDS = 35 * 86_400;

interface LimitCommands {
  mdqAdmit(
    bucket: string,
    usage: string,
    rpm: number,
    quota: number,
    charges: number,
    ttl: number,
    unit: number,
    usedFloor: number,
    requestsFloor: number,
    rows: number,
    deadline: number,
  ): Promise<number[]>;
  mdqCharge(
    usage: string,
    rows: number,
    ttl: number,
    deadline: number,
    quota: number,
    field: string,
    seen: number,
  ): Promise<number>;
  mdqRefund(usage: string, rows: number, field: string): Promise<null>;
  mdqPush(usage: string, rows: number, ttl: number, quota: number): Promise<number>;
}

/**
 * Buckets at `<prefix>{<id>}:bucket`, a day's usage at `<prefix>{<id>}:usage:<day>` (a hash
 * of used, requests, rate_limited, quota_exhausted, exported). The braces keep one key's entries in
 * one Redis Cluster slot, as a script touching both needs.
 */
export class RedisLimits implements SharedLimits {
  private readonly redis: Redis & LimitCommands;
  /** Redis's clock minus this process's (ms), from the last admit's reply; null until one. */
  private clockOffset: number | null = null;

  constructor(
    redis: Redis,
    private readonly prefix = 'mdq:',
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL once when Redis lost its script cache (a restart).
    redis.defineCommand('mdqAdmit', { numberOfKeys: 2, lua: ADMIT });
    redis.defineCommand('mdqCharge', { numberOfKeys: 1, lua: CHARGE });
    redis.defineCommand('mdqRefund', { numberOfKeys: 1, lua: REFUND });
    redis.defineCommand('mdqPush', { numberOfKeys: 1, lua: PUSH });
    this.redis = redis as Redis & LimitCommands;
  }

  bucketKey(id: string): string {
    return `${this.prefix}{${id}}:bucket`;
  }

  usageKey(id: string, day: string): string {
    return `${this.prefix}{${id}}:usage:${day}`;
  }

  async admit(ask: SharedAdmit): Promise<AdmitReply> {
    const { id, day, rpm, dailyQuota, chargesRows, seen, rows = 0 } = ask;
    const sent = Date.now();
    const usage = this.usageKey(id, day);
    const r = await this.call(
      () =>
        this.redis.mdqAdmit(
          this.bucketKey(id),
          usage,
          rpm ?? 0,
          dailyQuota ?? -1,
          chargesRows ? 1 : 0,
          USAGE_TTL_SECONDS,
          UNITS_PER_TOKEN,
          seen.used,
          seen.requests,
          rows,
          rows > 0 ? this.deadline(sent) : 0,
        ),
      (late) => late[7] === 1 && this.giveBack(usage, rows, 'used'),
    );
    this.clockOffset = r[6] - (sent + Date.now()) / 2;
    // Admitted with rows that came too late to count: as if Redis had not answered (no answer leaves uncharged).
    if (r[0] === 0 && rows > 0 && r[7] !== 1)
      throw new LimitsUnavailable('the rows reached Redis after their deadline');
    return {
      refused: r[0] as SharedRefusal,
      units: r[1],
      used: r[2],
      requests: r[3],
      rateLimited: r[4],
      quotaExhausted: r[5],
    };
  }

  /**
   * Charges `rows` to the day's count `field`; with `quota` (an export's allowance) only when
   * they fit in it. Resolves to the count after, or to −(count + 1) when they do not fit
   * (nothing charged).
   */
  async charge(
    id: string,
    day: string,
    rows: number,
    quota: number | null = null,
    field: 'used' | 'exported' = 'used',
    seen = 0,
  ): Promise<number> {
    const usage = this.usageKey(id, day);
    const used = await this.call(
      () => this.redis.mdqCharge(usage, rows, USAGE_TTL_SECONDS, this.deadline(Date.now()), quota ?? -1, field, seen),
      (late) => late >= 0 && this.giveBack(usage, rows, field),
    );
    if (used === -1) throw new LimitsUnavailable('the rows reached Redis after their deadline');
    return used <= -2 ? used + 1 : used;
  }

  async refund(id: string, day: string, rows: number, field: 'used' | 'exported'): Promise<void> {
    await this.call(() => this.redis.mdqRefund(this.usageKey(id, day), rows, field));
  }

  /** A pushed message's rows: charged when rows are left; resolves to the rows used after, or −(used + 1) when none were left. */
  push(id: string, day: string, rows: number, quota: number | null): Promise<number> {
    const usage = this.usageKey(id, day);
    // A reply after the give-up: the message was withheld, so rows it charged are given back.
    return this.call(
      () => this.redis.mdqPush(usage, rows, USAGE_TTL_SECONDS, quota ?? -1),
      (late) => late >= 0 && this.giveBack(usage, rows, 'used'),
    );
  }

  /** ROWS_DEADLINE_MS after `sentMs`, in Redis time (0, no deadline, before any admit told the clocks' offset). */
  private deadline(sentMs: number): number {
    return this.clockOffset === null ? 0 : Math.round(sentMs + this.clockOffset + ROWS_DEADLINE_MS);
  }

  /** Gives back rows charged for an answer that was not sent (its reply came after the give-up). */
  private giveBack(usage: string, rows: number, field: string): void {
    this.redis.mdqRefund(usage, rows, field).catch(() => {}); // Redis gone again: its usage is lost with it anyway
  }

  /**
   * The reply of `command`, or LimitsUnavailable after GIVE_UP_MS (or on any failure of the
   * client: closed, a reply error). The give-up waits one turn of the event loop more, so a
   * reply that reached the socket while the loop was busy is read first rather than lost to
   * the timer. A reply after the give-up goes to `late`.
   */
  private call<T>(command: () => Promise<T>, late: (value: T) => unknown = () => {}): Promise<T> {
    return new Promise((resolve, reject) => {
      let done = false;
      let gaveUp = false;
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (done) return;
            gaveUp = true;
            reject(new LimitsUnavailable(`no answer within ${GIVE_UP_MS} ms`));
          }),
        GIVE_UP_MS,
      );
      command().then(
        (value) => {
          if (gaveUp) return void late(value);
          done = true;
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (gaveUp) return;
          done = true;
          clearTimeout(timer);
          reject(new LimitsUnavailable(error instanceof Error ? error.message : String(error)));
        },
      );
    });
  }
}
