// Request figures for /metrics, counted where requests are answered: typed arrays written in
// place, nothing allocated per request. prom-client reads them when scraped (exposition.ts):
// its own labelled inc/observe cost ~1 µs a request here (measured), these ~20 ns. The arrays
// are shared memory: the thread answering /metrics reads every serving thread's figures as they
// are at the scrape, with no message round trip (which would make /metrics wait on other
// threads, and a request pipelined behind a waiting answer closes its connection in uWS).

import { DEFAULT_PLANS, type Plan } from '../../engine/plans.js';

/** Upper bounds (seconds) of the latency histogram: 50 µs to 5 s. */
export const LATENCY_BUCKETS: readonly number[] = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];
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

/**
 * One thread's figures in shared memory: written by that thread alone, read by the thread that
 * answers /metrics. A status code is written before the count that makes it visible.
 */
export interface RequestStorage {
  /** Status code of each slot, in the order they first appeared; `statusCount[0]` of them are in use. */
  statuses: Int16Array;
  statusCount: Int32Array;
  /** [route][status slot][plan] */
  requests: Float64Array;
  rows: Float64Array;
  /** [route][bucket], LATENCY_BUCKETS.length + 1 per route */
  latency: Float64Array;
  latencySum: Float64Array;
}

const shared = <T>(make: new (buffer: SharedArrayBuffer) => T, bytes: number): T =>
  new make(new SharedArrayBuffer(bytes));

/** Zeroed storage for a sum made once and dropped (no shared memory needed); `plans` columns per status, NO_PLAN included. */
function privateStorage(routes: number, plans: number): RequestStorage {
  const cells = routes * MAX_STATUSES * plans;
  return {
    statuses: new Int16Array(MAX_STATUSES),
    statusCount: new Int32Array(1),
    requests: new Float64Array(cells),
    rows: new Float64Array(cells),
    latency: new Float64Array(routes * (LATENCY_BUCKETS.length + 1)),
    latencySum: new Float64Array(routes),
  };
}

/** Zeroed shared storage for `routes` × `plans` (NO_PLAN included). */
function sharedStorage(routes: number, plans: number): RequestStorage {
  const cells = routes * MAX_STATUSES * plans;
  return {
    statuses: shared(Int16Array, MAX_STATUSES * 2),
    statusCount: shared(Int32Array, 4),
    requests: shared(Float64Array, cells * 8),
    rows: shared(Float64Array, cells * 8),
    latency: shared(Float64Array, routes * (LATENCY_BUCKETS.length + 1) * 8),
    latencySum: shared(Float64Array, routes * 8),
  };
}

/** What /metrics and the dashboard read: one thread's figures, or every serving thread's summed. */
export interface RequestFigures {
  cells(): RequestCell[];
  latencies(): LatencyRow[];
}

export class RequestMetrics implements RequestFigures {
  /** The plan label of each plan column: the plans in force (by `Plan.index`), then NO_PLAN. */
  private readonly planLabels: readonly string[];
  private readonly statusSlot = new Int8Array(600).fill(-1);
  private readonly requests: Float64Array;
  private readonly rows: Float64Array;
  private readonly latency: Float64Array;
  private readonly latencySum: Float64Array;

  /**
   * Figures over `routes` and `plans` (the names of the plans in force, in `Plan.index` order:
   * every serving thread's figures are added column by column, so every thread gives the same
   * list), counted into `storage` (new shared memory by default; another thread's to read them).
   */
  constructor(
    readonly routes: readonly string[],
    readonly plans: readonly string[] = DEFAULT_PLANS.names,
    readonly storage: RequestStorage = sharedStorage(routes.length, plans.length + 1),
  ) {
    this.planLabels = [...plans, NO_PLAN];
    ({ requests: this.requests, rows: this.rows, latency: this.latency, latencySum: this.latencySum } = storage);
    for (let s = 0; s < this.statusCount; s++) this.statusSlot[storage.statuses[s]] = s;
  }

  private get statusCount(): number {
    return Atomics.load(this.storage.statusCount, 0);
  }

  /** The index `record` takes for `route` (one of the constructor's). */
  routeIndex(route: string): number {
    const index = this.routes.indexOf(route);
    if (index < 0) throw new Error(`no metrics route ${route}`);
    return index;
  }

  /** One answer: its route index, status, plan (null: none), rows charged and seconds taken. */
  record(route: number, status: number, plan: Plan | null, rows: number, seconds: number): void {
    const cell =
      (route * MAX_STATUSES + this.slotOf(status)) * this.planLabels.length +
      (plan === null ? this.plans.length : plan.index);
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
    const statuses = this.statusCount;
    for (let r = 0; r < this.routes.length; r++) {
      for (let s = 0; s < statuses; s++) {
        for (let p = 0; p < this.planLabels.length; p++) {
          const cell = (r * MAX_STATUSES + s) * this.planLabels.length + p;
          if (this.requests[cell] > 0)
            out.push({
              route: this.routes[r],
              status: this.storage.statuses[s],
              plan: this.planLabels[p],
              requests: this.requests[cell],
              rows: this.rows[cell],
            });
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

  /** Adds another thread's figures (over the same routes) to these. */
  add(other: RequestStorage): void {
    const plans = this.planLabels.length;
    const statuses = Atomics.load(other.statusCount, 0);
    for (let r = 0; r < this.routes.length; r++) {
      for (let s = 0; s < statuses; s++) {
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

  /** These figures plus `others`' (other threads' storage, read as it is now), as a new object. */
  combined(others: readonly RequestStorage[]): RequestMetrics {
    const sum = new RequestMetrics(this.routes, this.plans, privateStorage(this.routes.length, this.planLabels.length));
    sum.add(this.storage);
    for (const o of others) sum.add(o);
    return sum;
  }

  private slotOf(status: number): number {
    const slot = this.statusSlot[status];
    if (slot >= 0) return slot;
    const count = this.statusCount;
    if (count === MAX_STATUSES) throw new Error(`more than ${MAX_STATUSES} distinct statuses`);
    this.storage.statuses[count] = status;
    Atomics.store(this.storage.statusCount, 0, count + 1); // after the code: a reader never sees an unset slot
    return (this.statusSlot[status] = count);
  }
}
