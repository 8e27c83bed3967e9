// The plans of decisions.md §3: the spec's Limits table plus the operators' `internal` plan (shared by the key store and the guard).

/** Plan identifiers as stored with a key and answered in `/quota`'s `plan`. */
export type PlanName = 'free' | 'pro' | 'enterprise' | 'internal';

/** The limits of one plan. `null` means "never limited" (internal keys only). */
export interface Plan {
  readonly name: PlanName;
  /** Requests per minute: bucket capacity, refilled at rpm/60 tokens a second. */
  readonly rpm: number | null;
  /** Rows a day. */
  readonly dailyQuota: number | null;
  /** Most symbols in one batch request. */
  readonly batch: number;
  /** Most rows a K-line or screen call returns (`limit` is clamped to it). */
  readonly rowsPerCall: number;
}

/** Every plan by name, with the figures of service-spec.md's Limits table. */
export const PLANS: Readonly<Record<PlanName, Plan>> = Object.freeze({
  free: Object.freeze({ name: 'free', rpm: 30, dailyQuota: 5_000, batch: 5, rowsPerCall: 100 }),
  pro: Object.freeze({ name: 'pro', rpm: 120, dailyQuota: 200_000, batch: 50, rowsPerCall: 500 }),
  enterprise: Object.freeze({ name: 'enterprise', rpm: 600, dailyQuota: 2_000_000, batch: 50, rowsPerCall: 500 }),
  internal: Object.freeze({ name: 'internal', rpm: null, dailyQuota: null, batch: 50, rowsPerCall: 500 }),
} satisfies Record<PlanName, Plan>);

/** Plan names in the order the keys command lists them. */
export const PLAN_NAMES: readonly PlanName[] = Object.freeze(['free', 'pro', 'enterprise', 'internal']);

/** True when `value` names a plan. */
export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}

/** One stored key as the key store keeps it and the guard reads it. `hash` is SHA-256 of the secret; the key text itself is never stored. */
export interface KeyRecord {
  readonly id: string;
  readonly plan: PlanName;
  readonly org: string;
  /** ISO 8601 instant of creation. */
  readonly created: string;
  readonly disabled: boolean;
  readonly hash: Uint8Array;
}
