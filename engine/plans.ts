// The built-in plans (the spec's Limits table plus the operators' `internal` plan: never rate- or
// quota-limited, batch 50, 500 rows per call, exports and streams unlimited; each other plan with its
// daily export allowance and its stream limits) and
// the table of plans in force: those, with the figures PLANS_FILE changes, and the plans it adds.

/**
 * A plan's name as stored with a key and answered in `/quota`'s `plan`: `[a-z][a-z0-9_-]{0,31}`.
 * Which names exist is the table in force ({@link Plans}); a stored key may name one that is not.
 */
export type PlanName = string;

/** The pattern every plan name matches. */
export const PLAN_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** True when `text` is a well-formed plan name (whether such a plan is in force is `Plans.has`). */
export function wellFormedPlanName(text: string): boolean {
  return PLAN_NAME.test(text);
}

/** The limits of one plan. `null` means "never limited" (the internal plan's rate and quota). */
export interface PlanFigures {
  /** Requests per minute: bucket capacity, refilled at rpm/60 tokens a second. */
  readonly rpm: number | null;
  /** Rows a day. */
  readonly dailyQuota: number | null;
  /** Most symbols in one batch request. */
  readonly batch: number;
  /** Most rows a K-line or screen call returns (`limit` is clamped to it). */
  readonly rowsPerCall: number;
  /** Rows a day the key may export (`/{market}/export`), counted apart from `dailyQuota`; 0: exports are not in the plan. */
  readonly exportRows: number | null;
  /** Most WebSocket connections (`/api/v1/stream`) a key holds open at once, over every serving thread; null: unlimited. */
  readonly connections: number | null;
  /** Most subscriptions one connection holds (a `bars` symbol counts 1, `*` counts BARS_ALL_WEIGHT); null: unlimited. */
  readonly subscriptions: number | null;
}

/** A plan as given to {@link Plans}: its name and figures. */
export interface PlanSpec extends PlanFigures {
  readonly name: PlanName;
}

/** A plan in force. Resolved once per key (when the key table is taken), never per request. */
export interface Plan extends PlanSpec {
  /** Its place in the table in force (0, 1, …): per-plan counters are indexed by it, so no request looks a name up. */
  readonly index: number;
  /**
   * The plan as cache keys and ETags name it: its name and the figures that shape an answer
   * (batch, rows per call), so an answer made under other figures of the same name (a changed
   * PLANS_FILE) is never served from a cache or revalidated as unchanged.
   */
  readonly answerKey: string;
}

/** The plans every table holds: the spec's Limits table, then `internal`. */
export type BuiltInPlanName = 'free' | 'pro' | 'enterprise' | 'internal';

/** Built-in plan names in the order the keys command and the first start list them. */
export const BUILT_IN_PLAN_NAMES: readonly BuiltInPlanName[] = Object.freeze(['free', 'pro', 'enterprise', 'internal']);

/** The built-in plans' figures: the spec's Limits table, and `internal` (no rate, no quota). */
export const BUILT_IN_PLANS: Readonly<Record<BuiltInPlanName, PlanFigures>> = Object.freeze({
  free: Object.freeze({
    rpm: 30,
    dailyQuota: 5_000,
    batch: 5,
    rowsPerCall: 100,
    exportRows: 0,
    connections: 1,
    subscriptions: 5,
  }),
  pro: Object.freeze({
    rpm: 120,
    dailyQuota: 200_000,
    batch: 50,
    rowsPerCall: 500,
    exportRows: 20_000_000,
    connections: 5,
    subscriptions: 50,
  }),
  enterprise: Object.freeze({
    rpm: 600,
    dailyQuota: 2_000_000,
    batch: 50,
    rowsPerCall: 500,
    exportRows: 200_000_000,
    connections: 20,
    subscriptions: 200,
  }),
  internal: Object.freeze({
    rpm: null,
    dailyQuota: null,
    batch: 50,
    rowsPerCall: 500,
    exportRows: null,
    connections: null,
    subscriptions: null,
  }),
});

/** What a `bars` subscription to every symbol of a market (`*`) counts against a connection's subscriptions. */
export const BARS_ALL_WEIGHT = 100;

/** True when `name` is one of the four built-in plans (never removable). */
export function isBuiltInPlan(name: string): name is BuiltInPlanName {
  return (BUILT_IN_PLAN_NAMES as readonly string[]).includes(name);
}

/**
 * The plans in force, immutable: every built-in plan (with the figures PLANS_FILE gives it),
 * then the plans PLANS_FILE adds, in the order given. A built-in plan cannot be removed.
 */
export class Plans {
  /** Every plan in force, built-in first. */
  readonly list: readonly Plan[];
  /** Their names, in the same order. */
  readonly names: readonly PlanName[];
  private readonly byName: ReadonlyMap<PlanName, Plan>;

  /**
   * @param specs every plan: each built-in one exactly once, each name well formed and used once (throws otherwise).
   * @param source the file they were read from (PLANS_FILE), named in messages; null for the built-in table.
   */
  constructor(
    specs: readonly PlanSpec[],
    readonly source: string | null = null,
  ) {
    const byName = new Map<PlanName, Plan>();
    const ordered = [
      ...BUILT_IN_PLAN_NAMES.map((n) => specs.find((s) => s.name === n)),
      ...specs.filter((s) => !isBuiltInPlan(s.name)),
    ];
    for (const [i, s] of ordered.entries()) {
      if (s === undefined) throw new Error(`plans: the built-in plan ${BUILT_IN_PLAN_NAMES[i]} is missing`);
      if (!wellFormedPlanName(s.name)) throw new Error(`plans: '${s.name}' is not a plan name`);
      if (byName.has(s.name)) throw new Error(`plans: ${s.name} is given twice`);
      const { name, rpm, dailyQuota, batch, rowsPerCall, exportRows, connections, subscriptions } = s;
      byName.set(
        name,
        Object.freeze({
          name,
          rpm,
          dailyQuota,
          batch,
          rowsPerCall,
          exportRows,
          connections,
          subscriptions,
          index: i,
          answerKey: `${name}/${batch}/${rowsPerCall}`,
        }),
      );
    }
    if (ordered.length !== specs.length) throw new Error('plans: a plan is given twice');
    this.byName = byName;
    this.list = Object.freeze([...byName.values()]);
    this.names = Object.freeze(this.list.map((p) => p.name));
  }

  /** The plan named `name`, or undefined when none is in force. */
  get(name: PlanName): Plan | undefined {
    return this.byName.get(name);
  }

  /** True when a plan named `name` is in force. */
  has(name: PlanName): boolean {
    return this.byName.has(name);
  }

  /** The built-in plan `name` (always in force). */
  builtIn(name: BuiltInPlanName): Plan {
    return this.byName.get(name)!;
  }

  /** What a serving thread is posted: plain objects, rebuilt with {@link Plans.fromMessage}. */
  toMessage(): PlansMessage {
    return {
      source: this.source,
      plans: this.list.map(({ name, rpm, dailyQuota, batch, rowsPerCall, exportRows, connections, subscriptions }) => ({
        name,
        rpm,
        dailyQuota,
        batch,
        rowsPerCall,
        exportRows,
        connections,
        subscriptions,
      })),
    };
  }

  /** The table posted by another thread. */
  static fromMessage(m: PlansMessage): Plans {
    return new Plans(m.plans, m.source);
  }
}

/** The plans in force as posted between threads (structured clone keeps no class). */
export interface PlansMessage {
  source: string | null;
  plans: PlanSpec[];
}

/** The built-in table: the plans in force without PLANS_FILE. */
export const DEFAULT_PLANS = new Plans(BUILT_IN_PLAN_NAMES.map((name) => ({ name, ...BUILT_IN_PLANS[name] })));

/** One stored key as the key store keeps it and the guard reads it. `hash` is SHA-256 of the secret; the key text itself is never stored. */
export interface KeyRecord {
  readonly id: string;
  /** The plan's name; the guard resolves it in the plans in force (a key whose plan is not in force is refused). */
  readonly plan: PlanName;
  readonly org: string;
  /** ISO 8601 instant of creation. */
  readonly created: string;
  readonly disabled: boolean;
  readonly hash: Uint8Array;
}
