// Limits kept outside the process (Redis), shared by every instance: what the guard asks of them.

/** Why a limited request was refused by the shared store: 0 admitted, 1 rate, 2 quota. */
export type SharedRefusal = 0 | 1 | 2;

/** One admission asked of the shared store: the key, its quota day and plan figures, and the request. */
export interface SharedAdmit {
  id: string;
  day: string;
  rpm: number | null;
  dailyQuota: number | null;
  /** The route charges rows: a key with none left is refused (quota_exhausted). */
  chargesRows: boolean;
  /** This instance's last counts of the key's day. */
  seen: { used: number; requests: number };
  /** Rows charged with the admission (a kept answer's); default none. */
  rows?: number;
}

/** One key's state after an admit, as the shared store holds it for every instance. */
export interface AdmitReply {
  refused: SharedRefusal;
  /** Bucket contents after this request, in token units (token-bucket.ts); -1 when the plan has no rate. */
  units: number;
  /** Rows charged today before this request. */
  used: number;
  /** Requests today, this one included. */
  requests: number;
  rateLimited: number;
  quotaExhausted: number;
}

/**
 * Buckets and daily usage every instance reads and updates atomically (one round trip each).
 * A rejected promise means the store cannot answer now: the request is refused 503
 * `limits_unavailable`, never served unlimited.
 */
export interface SharedLimits {
  /**
   * Takes a token and counts the request; refuses (without charging) on an empty bucket or,
   * when `chargesRows`, no rows left. `seen` is the day's usage this instance last knew: the
   * store starts from it when it holds no usage for the day (it lost its data). `rows` (an
   * answer known before the admit) are charged in the same step when the request is admitted.
   */
  admit(ask: SharedAdmit): Promise<AdmitReply>;
  /**
   * Adds `rows` to the day's count `field` (`used`: the row quota's; `exported`: the export
   * allowance's); resolves to the count after it. With `quota` only when they fit in it, else
   * nothing is charged and it resolves to −(count + 1). `seen` is the count this instance last
   * knew: the store starts from it when it holds none for the day (it lost its data).
   */
  charge(
    id: string,
    day: string,
    rows: number,
    quota?: number | null,
    field?: 'used' | 'exported',
    seen?: number,
  ): Promise<number>;
  /** Takes `rows` off the day's count `field`: rows charged for an answer the server did not send whole. */
  refund(id: string, day: string, rows: number, field: 'used' | 'exported'): Promise<void>;
  /**
   * A pushed message's rows (a WebSocket subscription's): added to the day's usage when rows are
   * left under `quota` (null: always), resolving to the rows used after; else nothing is charged
   * and it resolves to −(rows used + 1).
   */
  push(id: string, day: string, rows: number, quota: number | null): Promise<number>;
}

/** The shared store did not answer (down, unreachable, or slower than its timeout). */
export class LimitsUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`the shared limits store cannot be reached: ${reason}`);
  }
}
