// In-process request figures for the health and usage pages: per-second and per-minute rings, latency buckets.

import { BUCKETS, bucketOf, quantileMs } from './latency-buckets.js';

const SECONDS = 60;
const MINUTES = 60;

/** Requests of one minute of the last hour (for the chart). */
export interface MinutePoint {
  /** Start of the minute, seconds since the epoch. */
  t: number;
  requests: number;
  errors: number;
}

/** The health page's figures. */
export interface MeterSummary {
  started: string;
  uptime_s: number;
  requests_total: number;
  errors_total: number;
  /** Mean requests a second over the last 10 and 60 seconds. */
  rps_10s: number;
  rps_60s: number;
  /** Latency percentiles in ms (null without requests in the window). */
  p50_ms_1m: number | null;
  p99_ms_1m: number | null;
  p50_ms_1h: number | null;
  p99_ms_1h: number | null;
  p50_ms_all: number | null;
  p99_ms_all: number | null;
}

/** One meter's counts, posted between serving threads. */
export interface MeterState {
  secCount: Uint32Array;
  secStamp: Float64Array;
  minCount: Uint32Array;
  minErrors: Uint32Array;
  minStamp: Float64Array;
  minLatency: Uint32Array;
  allLatency: Float64Array;
  total: number;
  errors: number;
}

/** What the dashboard reads of a meter: one thread's, or every serving thread's summed. */
export interface MeterView {
  readonly startedMs: number;
  summary(nowMs?: number): MeterSummary;
  perMinute(nowMs?: number): MinutePoint[];
}

/**
 * Counts every API answer. `record` runs on the request path: typed arrays written in place,
 * a ring slot reset when its second or minute comes round again, nothing allocated. The
 * summaries allocate and are for the dashboard only.
 */
export class RequestMeter implements MeterView {
  private readonly startMs: number;
  private readonly secCount = new Uint32Array(SECONDS);
  private readonly secStamp = new Float64Array(SECONDS).fill(-1);
  private readonly minCount = new Uint32Array(MINUTES);
  private readonly minErrors = new Uint32Array(MINUTES);
  private readonly minStamp = new Float64Array(MINUTES).fill(-1);
  /** One row of BUCKETS latency counts per minute slot. */
  private readonly minLatency = new Uint32Array(MINUTES * BUCKETS);
  private readonly allLatency = new Float64Array(BUCKETS);
  private total = 0;
  private errors = 0;

  constructor(
    private readonly now: () => number = Date.now,
    startMs?: number,
  ) {
    this.startMs = startMs ?? now();
  }

  /** One answered request: when (ms since the epoch), how long it took (ms) and its status. */
  record(nowMs: number, ms: number, status: number): void {
    const sec = Math.floor(nowMs / 1000);
    const si = sec % SECONDS;
    if (this.secStamp[si] !== sec) {
      this.secStamp[si] = sec;
      this.secCount[si] = 0;
    }
    this.secCount[si]++;
    const min = Math.floor(sec / 60);
    const mi = min % MINUTES;
    if (this.minStamp[mi] !== min) {
      this.minStamp[mi] = min;
      this.minCount[mi] = 0;
      this.minErrors[mi] = 0;
      this.minLatency.fill(0, mi * BUCKETS, (mi + 1) * BUCKETS);
    }
    this.minCount[mi]++;
    const b = bucketOf(ms);
    this.minLatency[mi * BUCKETS + b]++;
    this.allLatency[b]++;
    this.total++;
    if (status >= 400) {
      this.minErrors[mi]++;
      this.errors++;
    }
  }

  /** Requests in the `seconds` whole seconds before the current one. */
  private lastSeconds(nowSec: number, seconds: number): number {
    let n = 0;
    for (let s = nowSec - seconds; s < nowSec; s++) {
      const i = s % SECONDS;
      if (this.secStamp[i] === s) n += this.secCount[i];
    }
    return n;
  }

  /** Latency counts over the minutes `[nowMin - back, nowMin]` that hold data. */
  private latencyOver(nowMin: number, back: number): Float64Array {
    const sum = new Float64Array(BUCKETS);
    for (let m = nowMin - back; m <= nowMin; m++) {
      const i = m % MINUTES;
      if (this.minStamp[i] !== m) continue;
      for (let b = 0; b < BUCKETS; b++) sum[b] += this.minLatency[i * BUCKETS + b];
    }
    return sum;
  }

  summary(nowMs: number = this.now()): MeterSummary {
    const sec = Math.floor(nowMs / 1000);
    const min = Math.floor(sec / 60);
    const minute = this.latencyOver(min, 1); // this minute and the one before: never an empty window at :00
    const hour = this.latencyOver(min, MINUTES - 1);
    return {
      started: new Date(this.startMs).toISOString(),
      uptime_s: Math.max(0, Math.round((nowMs - this.startMs) / 1000)),
      requests_total: this.total,
      errors_total: this.errors,
      rps_10s: this.lastSeconds(sec, 10) / 10,
      rps_60s: this.lastSeconds(sec, 60) / 60,
      p50_ms_1m: quantileMs(minute, 0.5),
      p99_ms_1m: quantileMs(minute, 0.99),
      p50_ms_1h: quantileMs(hour, 0.5),
      p99_ms_1h: quantileMs(hour, 0.99),
      p50_ms_all: quantileMs(this.allLatency, 0.5),
      p99_ms_all: quantileMs(this.allLatency, 0.99),
    };
  }

  /** A copy of the counts, to post to the thread that serves the dashboard. */
  state(): MeterState {
    const { secCount, secStamp, minCount, minErrors, minStamp, minLatency, allLatency, total, errors } = this;
    return {
      secCount: secCount.slice(),
      secStamp: secStamp.slice(),
      minCount: minCount.slice(),
      minErrors: minErrors.slice(),
      minStamp: minStamp.slice(),
      minLatency: minLatency.slice(),
      allLatency: allLatency.slice(),
      total,
      errors,
    };
  }

  /**
   * These counts plus `others`' as a new meter: a ring slot sums the meters that hold its
   * latest second or minute (a slot another thread has not reached yet is older, not summed).
   */
  combined(others: readonly MeterState[]): RequestMeter {
    const sum = new RequestMeter(this.now, this.startMs);
    for (const m of [this.state(), ...others]) {
      sum.total += m.total;
      sum.errors += m.errors;
      for (let b = 0; b < BUCKETS; b++) sum.allLatency[b] += m.allLatency[b];
      for (let i = 0; i < SECONDS; i++) {
        if (m.secStamp[i] > sum.secStamp[i]) (sum.secStamp[i] = m.secStamp[i]), (sum.secCount[i] = 0);
        if (m.secStamp[i] === sum.secStamp[i]) sum.secCount[i] += m.secCount[i];
      }
      for (let i = 0; i < MINUTES; i++) {
        if (m.minStamp[i] > sum.minStamp[i]) {
          sum.minStamp[i] = m.minStamp[i];
          sum.minCount[i] = sum.minErrors[i] = 0;
          sum.minLatency.fill(0, i * BUCKETS, (i + 1) * BUCKETS);
        }
        if (m.minStamp[i] !== sum.minStamp[i]) continue;
        sum.minCount[i] += m.minCount[i];
        sum.minErrors[i] += m.minErrors[i];
        for (let b = 0; b < BUCKETS; b++) sum.minLatency[i * BUCKETS + b] += m.minLatency[i * BUCKETS + b];
      }
    }
    return sum;
  }

  /** When the meter started counting (the server's start), ms since the epoch. */
  get startedMs(): number {
    return this.startMs;
  }

  /**
   * Requests per minute over the last hour, oldest first, the current minute last. The
   * series starts at the minute the server started when that is less than an hour ago:
   * no empty minutes from before it existed.
   */
  perMinute(nowMs: number = this.now()): MinutePoint[] {
    const min = Math.floor(nowMs / 60_000);
    const first = Math.min(min, Math.max(min - (MINUTES - 1), Math.floor(this.startMs / 60_000)));
    const out: MinutePoint[] = [];
    for (let m = first; m <= min; m++) {
      const i = m % MINUTES;
      const live = this.minStamp[i] === m;
      out.push({ t: m * 60, requests: live ? this.minCount[i] : 0, errors: live ? this.minErrors[i] : 0 });
    }
    return out;
  }
}
