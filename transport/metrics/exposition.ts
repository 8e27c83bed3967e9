// GET /metrics: the Prometheus text exposition, written by prom-client from figures counted
// elsewhere (RequestMetrics' typed arrays, the answer caches, the reloads) when scraped.

import type { IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, type Metric, Registry } from 'prom-client';
import type { StreamTotals } from '../stream/figures.js';
import { LATENCY_BUCKETS, type RequestFigures } from './request-metrics.js';

/** What the exposition reads at each scrape. */
export interface MetricsSources {
  requests: RequestFigures;
  /** Answer-cache lookups of the data version served now. */
  answerCache: () => { hits: number; misses: number; entries: number; bytes: number };
  /** Reload passes by outcome (loaded, unchanged, rejected, failed) and the last one's seconds. */
  reloads: () => { counts: Readonly<Record<string, number>>; lastSeconds: number | null };
  /** The data version served now (null before the first load). */
  dataVersion: () => string | null;
  /** False while usage counts are held in memory because the state folder refuses their write. */
  usageDurable: () => boolean;
  /** Screens waiting for a pool worker. */
  poolQueue: () => number;
  /** Service version and commit, as /version tells them. */
  service: { version: string; commit: string };
  /** The WebSockets of /api/v1/stream, over every serving thread. */
  stream: () => StreamTotals;
  /** Standing-screen runs kept on this thread's pool (running, or stood on by a screen of some thread). */
  screenRuns: () => number;
  /** The event-loop delay, watched since the server started (reset at each scrape). */
  eventLoopDelay: IntervalHistogram;
}

export function metricsRegistry(s: MetricsSources): Registry {
  const registry = new Registry();
  const registers = [registry];
  processMetrics(s.eventLoopDelay, registers);

  new Counter({
    name: 'mdq_http_requests_total',
    help: 'Answers by route pattern, status and plan (none: no key checked).',
    labelNames: ['route', 'status', 'plan'],
    registers,
    collect() {
      this.reset();
      for (const c of s.requests.cells()) this.inc({ route: c.route, status: c.status, plan: c.plan }, c.requests);
    },
  });
  new Counter({
    name: 'mdq_rows_served_total',
    help: 'Rows charged to keys (200 answers), by route and plan.',
    labelNames: ['route', 'plan'],
    registers,
    collect() {
      this.reset();
      for (const c of s.requests.cells()) if (c.rows > 0) this.inc({ route: c.route, plan: c.plan }, c.rows);
    },
  });
  registry.registerMetric(latencyHistogram(s.requests) as unknown as Metric); // see latencyHistogram
  dataMetrics(s, registers);
  streamMetrics(s, registers);
  return registry;
}

/** The WebSockets: connections, subscriptions by channel, what was sent, sockets closed for backpressure. */
function streamMetrics(s: MetricsSources, registers: Registry[]): void {
  new Gauge({
    name: 'mdq_stream_connections',
    help: 'Open WebSocket connections of /api/v1/stream (authenticated or not yet).',
    registers,
    collect() {
      this.set(s.stream().connections);
    },
  });
  new Gauge({
    name: 'mdq_stream_subscriptions',
    help: 'Stream subscriptions held now, by channel, as the plans count them (a bars symbol 1, "*" 100).',
    labelNames: ['channel'],
    registers,
    collect() {
      const { subscriptions } = s.stream();
      for (const [channel, n] of Object.entries(subscriptions)) this.set({ channel }, n);
    },
  });
  new Counter({
    name: 'mdq_stream_messages_total',
    help: 'Server messages handed to WebSockets (a published message counts once per socket it reached).',
    registers,
    collect() {
      this.reset();
      this.inc(s.stream().messages);
    },
  });
  new Counter({
    name: 'mdq_stream_sent_bytes_total',
    help: 'Bytes of the server messages handed to WebSockets.',
    registers,
    collect() {
      this.reset();
      this.inc(s.stream().bytes);
    },
  });
  new Gauge({
    name: 'mdq_stream_screen_runs',
    help: 'Standing-screen runs kept for the screens that stand on them (or still running), over every serving thread.',
    registers,
    collect() {
      this.set(s.screenRuns());
    },
  });
  new Counter({
    name: 'mdq_stream_backpressure_closes_total',
    help: 'WebSockets closed with 1013 for holding more than 8 MiB unsent.',
    registers,
    collect() {
      this.reset();
      this.inc(s.stream().backpressureCloses);
    },
  });
}

/** The answer cache, reloads, the data and build served, the pool's queue. */
function dataMetrics(s: MetricsSources, registers: Registry[]): void {
  new Counter({
    name: 'mdq_answer_cache_lookups_total',
    help: 'Answer-cache lookups of the data version served now, by result.',
    labelNames: ['result'],
    registers,
    collect() {
      const { hits, misses } = s.answerCache();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
  new Gauge({
    name: 'mdq_answer_cache_bytes',
    help: 'Bytes of answers kept for the data version served now.',
    registers,
    collect() {
      this.set(s.answerCache().bytes);
    },
  });
  new Counter({
    name: 'mdq_reloads_total',
    help: 'Snapshot reload passes (SIGHUP or the dashboard), by outcome: loaded, unchanged, rejected, failed.',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset();
      for (const [result, count] of Object.entries(s.reloads().counts)) this.inc({ result }, count);
    },
  });
  new Gauge({
    name: 'mdq_reload_last_duration_seconds',
    help: 'How long the last reload took (absent before any).',
    registers,
    collect() {
      const { lastSeconds } = s.reloads();
      this.reset();
      if (lastSeconds !== null) this.set(lastSeconds);
    },
  });
  new Gauge({
    name: 'mdq_data_info',
    help: 'The data version served (always 1).',
    labelNames: ['version'],
    registers,
    collect() {
      const version = s.dataVersion();
      this.reset();
      if (version !== null) this.set({ version }, 1);
    },
  });
  new Gauge({
    name: 'mdq_usage_durable',
    help: "1 while the keys' usage counts reach the state folder; 0 while it refuses them (a full disk): they are held in memory and written once there is room.",
    registers,
    collect() {
      this.set(s.usageDurable() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'mdq_build_info',
    help: 'The service version and commit (always 1).',
    labelNames: ['version', 'commit'],
    registers,
    collect() {
      this.set({ version: s.service.version, commit: s.service.commit }, 1);
    },
  });
  new Gauge({
    name: 'mdq_pool_queue_length',
    help: 'Screens waiting for a pool worker.',
    registers,
    collect() {
      this.set(s.poolQueue());
    },
  });
}

/**
 * mdq_http_request_duration_seconds from RequestMetrics' pre-counted buckets. prom-client's
 * Histogram can only observe values one by one (~1 µs a request with labels), so this is a
 * metric in the shape its registry formats: `get()` giving the _bucket, _sum and _count lines.
 */
function latencyHistogram(requests: RequestFigures): { name: string; get(): object } {
  const name = 'mdq_http_request_duration_seconds';
  return {
    name,
    get() {
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const row of requests.latencies()) {
        let cumulative = 0;
        for (let b = 0; b < LATENCY_BUCKETS.length; b++) {
          cumulative += row.buckets[b];
          values.push({
            metricName: `${name}_bucket`,
            labels: { route: row.route, le: LATENCY_BUCKETS[b] },
            value: cumulative,
          });
        }
        values.push({ metricName: `${name}_bucket`, labels: { route: row.route, le: '+Inf' }, value: row.count });
        values.push({ metricName: `${name}_sum`, labels: { route: row.route }, value: row.sum });
        values.push({ metricName: `${name}_count`, labels: { route: row.route }, value: row.count });
      }
      return {
        name,
        help: 'Time from a request read to its answer written, by route.',
        type: 'histogram',
        values,
        aggregator: 'sum',
      };
    },
  };
}

/**
 * The event-loop delay (the sources' histogram, reset at each scrape: the figures cover the
 * interval since the last one), memory and CPU. Not prom-client's default set: three of its
 * gauges end in _total, which promtool's lint refuses.
 */
function processMetrics(delay: IntervalHistogram, registers: Registry[]): void {
  const seconds = (ns: number): number => (Number.isFinite(ns) ? ns / 1e9 : 0);
  new Gauge({
    name: 'mdq_event_loop_delay_seconds',
    help: 'Event-loop delay since the last scrape: p50, p99 and max.',
    labelNames: ['stat'],
    registers,
    collect() {
      this.set({ stat: 'p50' }, seconds(delay.percentile(50)));
      this.set({ stat: 'p99' }, seconds(delay.percentile(99)));
      this.set({ stat: 'max' }, seconds(delay.max));
      delay.reset();
    },
  });
  new Gauge({
    name: 'mdq_process_resident_memory_bytes',
    help: 'Resident set size.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Counter({
    name: 'mdq_process_cpu_seconds_total',
    help: 'User and system CPU time of the process.',
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  const started = Date.now() / 1000 - process.uptime();
  new Gauge({
    name: 'mdq_process_start_time_seconds',
    help: 'When the process started, seconds since the epoch.',
    registers,
    collect() {
      this.set(started);
    },
  });
}
