// Request figures for /metrics, counted where requests are answered: typed arrays written in
// place, nothing allocated per request. prom-client reads them when scraped (exposition.ts):
// its own labelled inc/observe cost ~1 µs a request here (measured), these ~20 ns.

import { DEFAULT_PLANS, type Plan } from '../../engine/plans.js';

/** Upper bounds (seconds) of the latency histogram: 50 µs to 5 s. */
export const LATENCY_BUCKETS: readonly number[] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** The plan label of an answer no key was checked for (documents, health, a missing key). */
export const NO_PLAN = 'none';
/** Statuses get a column each as they first appear (a handful: 200, 304, 4xx, 5xx). */
const MAX_STATUSES = 32;

export interface RequestCell {
  route: string;
  status: number;
  plan: string;
  requests: number;
  rows: number;
}

export interface LatencyRow {
  route: string;
  /** Count per LATENCY_BUCKETS bound (not cumulative), then those above the last. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** What one thread's figures are to another (posted between serving threads). */
export interface RequestSnapshot {
  statuses: number[];
  requests: Float64Array;
  rows: Float64Array;
  latency: Float64Array;
  latencySum: Float64Array;
}

/** What /metrics and the dashboard read: one thread's figures, or every serving thread's summed. */
export interface RequestFigures {
  cells(): RequestCell[];
  latencies(): LatencyRow[];
}

export class RequestMetrics implements RequestFigures {
  private readonly statuses: number[] = [];
  private readonly statusSlot = new Int8Array(600).fill(-1);
  /** The plan label of each plan column: the plans in force (by `Plan.index`), then NO_PLAN. */
  private readonly planLabels: readonly string[];
  /** [route][status slot][plan] */
  private readonly requests: Float64Array;
  private readonly rows: Float64Array;
  /** [route][bucket], LATENCY_BUCKETS.length + 1 per route */
  private readonly latency: Float64Array;
  private readonly latencySum: Float64Array;

  /**
   * @param plans the names of the plans in force, in `Plan.index` order (every serving
   *   thread's figures are added column by column, so every thread gives the same list).
   */
  constructor(readonly routes: readonly string[], readonly plans: readonly string[] = DEFAULT_PLANS.names) {
    this.planLabels = [...plans, NO_PLAN];
    const cells = routes.length * MAX_STATUSES * this.planLabels.length;
    this.requests = new Float64Array(cells);
    this.rows = new Float64Array(cells);
    this.latency = new Float64Array(routes.length * (LATENCY_BUCKETS.length + 1));
    this.latencySum = new Float64Array(routes.length);
  }

  /** The index `record` takes for `route` (one of the constructor's). */
  routeIndex(route: string): number {
    const index = this.routes.indexOf(route);
    if (index < 0) throw new Error(`no metrics route ${route}`);
    return index;
  }

  /** One answer: its route index, status, plan (one of the constructor's; null: none), rows charged and seconds taken. */
  record(route: number, status: number, plan: Plan | null, rows: number, seconds: number): void {
    const cell = (route * MAX_STATUSES + this.slotOf(status)) * this.planLabels.length + (plan === null ? this.plans.length : plan.index);
    this.requests[cell]++;
    this.rows[cell] += rows;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]) bucket++;
    this.latency[route * (LATENCY_BUCKETS.length + 1) + bucket]++;
    this.latencySum[route] += seconds;
  }

  /** Every (route, status, plan) with at least one request. */
  cells(): RequestCell[] {
    const out: RequestCell[] = [];
    for (let r = 0; r < this.routes.length; r++) {
      for (let s = 0; s < this.statuses.length; s++) {
        for (let p = 0; p < this.planLabels.length; p++) {
          const cell = (r * MAX_STATUSES + s) * this.planLabels.length + p;
          if (this.requests[cell] > 0) out.push({ route: this.routes[r], status: this.statuses[s], plan: this.planLabels[p], requests: this.requests[cell], rows: this.rows[cell] });
        }
      }
    }
    return out;
  }

  /** The latency histogram of every route with at least one request. */
  latencies(): LatencyRow[] {
    const width = LATENCY_BUCKETS.length + 1;
    const out: LatencyRow[] = [];
    for (let r = 0; r < this.routes.length; r++) {
      const buckets = this.latency.slice(r * width, (r + 1) * width);
      const count = buckets.reduce((a, b) => a + b, 0);
      if (count > 0) out.push({ route: this.routes[r], buckets, sum: this.latencySum[r], count });
    }
    return out;
  }

  /** A copy of the figures, to post to the thread that answers /metrics. */
  snapshot(): RequestSnapshot {
    return { statuses: [...this.statuses], requests: this.requests.slice(), rows: this.rows.slice(), latency: this.latency.slice(), latencySum: this.latencySum.slice() };
  }

  /** Adds another thread's figures (over the same routes) to these. */
  add(other: RequestSnapshot): void {
    const plans = this.planLabels.length;
    for (let r = 0; r < this.routes.length; r++) {
      for (let s = 0; s < other.statuses.length; s++) {
        const mine = this.slotOf(other.statuses[s]);
        for (let p = 0; p < plans; p++) {
          const from = (r * MAX_STATUSES + s) * plans + p;
          const to = (r * MAX_STATUSES + mine) * plans + p;
          this.requests[to] += other.requests[from];
          this.rows[to] += other.rows[from];
        }
      }
    }
    for (let i = 0; i < this.latency.length; i++) this.latency[i] += other.latency[i];
    for (let i = 0; i < this.latencySum.length; i++) this.latencySum[i] += other.latencySum[i];
  }

  /** These figures plus `others`' (each thread's latest), as a new object. */
  combined(others: readonly RequestSnapshot[]): RequestMetrics {
    const sum = new RequestMetrics(this.routes, this.plans);
    sum.add(this.snapshot());
    for (const o of others) sum.add(o);
    return sum;
  }

  private slotOf(status: number): number {
    const slot = this.statusSlot[status];
    if (slot >= 0) return slot;
    if (this.statuses.length === MAX_STATUSES) throw new Error(`more than ${MAX_STATUSES} distinct statuses`);
    this.statuses.push(status);
    return (this.statusSlot[status] = this.statuses.length - 1);
  }
}
