// Bench: what observing a request costs on the hot path: the /metrics counters (typed arrays,
// and prom-client's own labelled inc/observe for comparison), the access log line through
// pino's asynchronous destination (batched by AccessLog, and pino's own info() for comparison),
// and one /metrics scrape.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Histogram, Registry } from 'prom-client';
import { Bench } from 'tinybench';
import pino from 'pino';
import { DEFAULT_PLANS } from '../../engine/plans.js';
import { AccessLog, createLogger } from '../../transport/log.js';
import { StreamFigures } from '../../transport/stream/figures.js';
import { metricsRegistry } from '../../transport/metrics/exposition.js';
import { LATENCY_BUCKETS, RequestMetrics } from '../../transport/metrics/request-metrics.js';

/** Requests per tinybench iteration: one timer read per request would dwarf a sub-µs body. */
const BATCH = 1_000;
const ROUTES = [
  '/api/v1/:market/klines/:symbol',
  '/api/v1/:market/screen',
  '/api/v1/:market/detail/:symbol',
  '/api/v1/markets',
];
const STATUSES = [200, 200, 200, 304, 404, 429];

export interface ObserveOptions {
  /** tinybench time per variant, ms. */
  timeMs: number;
}
export const OBSERVE_FULL: ObserveOptions = { timeMs: 1_500 };
export const OBSERVE_QUICK: ObserveOptions = { timeMs: 200 };
export const OBSERVE_TINY: ObserveOptions = { timeMs: 5 };

/** ns per request of each way of observing one, and ms per scrape of a filled /metrics. */
export async function run(o: ObserveOptions): Promise<Record<string, number>> {
  const metrics = new RequestMetrics(ROUTES);
  const registry = new Registry();
  const counter = new Counter({
    name: 'requests_total',
    help: 'h',
    labelNames: ['route', 'status', 'plan'],
    registers: [registry],
  });
  const rows = new Counter({ name: 'rows_total', help: 'h', labelNames: ['route', 'plan'], registers: [registry] });
  const latency = new Histogram({
    name: 'latency_seconds',
    help: 'h',
    labelNames: ['route'],
    buckets: [...LATENCY_BUCKETS],
    registers: [registry],
  });
  // The access log as the server writes it, and pino's own line, to /dev/null through the same asynchronous destination.
  const destination = pino.destination({ dest: '/dev/null', sync: false });
  const logger = createLogger('info', destination);
  const accessLog = new AccessLog(destination);
  const request = (i: number) => ({
    route: i % ROUTES.length,
    status: STATUSES[i % STATUSES.length],
    plan: DEFAULT_PLANS.list[i % 4],
    rows: i % 100,
    seconds: 0.0001 + (i % 50) * 1e-5,
  });
  const variants: Record<string, (i: number) => void> = {
    'metrics: typed arrays (in use)': (i) => {
      const r = request(i);
      metrics.record(r.route, r.status, r.plan, r.rows, r.seconds);
    },
    'metrics: prom-client inc + observe': (i) => {
      const r = request(i);
      const route = ROUTES[r.route];
      counter.inc({ route, status: r.status, plan: r.plan.name });
      rows.inc({ route, plan: r.plan.name }, r.rows);
      latency.observe({ route }, r.seconds);
    },
    'access line: AccessLog (in use)': (i) => {
      const r = request(i);
      accessLog.write({
        nowMs: Date.now(),
        requestId: `bench-${i}`,
        route: ROUTES[r.route],
        status: r.status,
        plan: r.plan.name,
        keyId: 'a1b2c3d4e5f6',
        rows: r.rows,
        bytes: 14_569,
        us: Math.round(r.seconds * 1e6),
      });
    },
    'access line: pino info()': (i) => {
      const r = request(i);
      logger.info(
        {
          request_id: `bench-${i}`,
          route: ROUTES[r.route],
          status: r.status,
          plan: r.plan.name,
          key_id: 'a1b2c3d4e5f6',
          rows: r.rows,
          bytes: 14_569,
          us: Math.round(r.seconds * 1e6),
        },
        'access',
      );
    },
    'nothing (the request record alone)': (i) => void request(i),
  };
  const bench = new Bench({ time: o.timeMs, warmupTime: Math.min(300, o.timeMs / 5) });
  // Each batch yields to the event loop, as a server does between reads: the asynchronous log destination writes then.
  for (const [name, observe] of Object.entries(variants))
    bench.add(name, async () => {
      for (let i = 0; i < BATCH; i++) observe(i);
      await new Promise(setImmediate);
    });
  await bench.run();
  const out: Record<string, number> = {};
  for (const t of bench.tasks)
    out[`median ns/request: ${t.name}`] =
      'latency' in t.result ? Math.round((t.result.latency.p50 * 1e6) / BATCH) : Number.NaN;

  const exposition = metricsRegistry({
    requests: metrics,
    answerCache: () => ({ hits: 1, misses: 1, entries: 1, bytes: 1 }),
    reloads: () => ({ counts: { loaded: 1 }, lastSeconds: 1 }),
    stream: () => StreamFigures.totals([new StreamFigures().storage]),
    screenRuns: () => 0,
    dataVersion: () => 'bench',
    usageDurable: () => true,
    poolQueue: () => 0,
    service: { version: 'bench', commit: 'bench' },
    eventLoopDelay: monitorEventLoopDelay(),
  });
  const scrapes = 20;
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < scrapes; i++) bytes = (await exposition.metrics()).length;
  out['ms per /metrics scrape'] = Number(((performance.now() - started) / scrapes).toFixed(2));
  out['/metrics bytes'] = bytes;
  console.table(Object.entries(out).map(([what, value]) => ({ what, value })));
  return out;
}
