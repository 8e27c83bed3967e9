// A serving thread besides the main one (THREADS ≥ 2): the same HTTP server on the same port,
// over the Dataset and the key slots the main thread shares with it. The main thread loads,
// reloads, keeps the state folder and answers the dashboard and /metrics; this one serves.

import { parentPort, workerData } from 'node:worker_threads';
import { datasetFromMessage } from './engine/dataset/dataset-message.js';
import { connectRedis } from './loaders/state/redis-connect.js';
import { RequestMeter } from './transport/admin/meter.js';
import { Guard } from './transport/guard/guard.js';
import { RedisLimits } from './transport/guard/redis-limits.js';
import { AccessLog, createLogger, type LogLevel } from './transport/log.js';
import { setAsOfBudget } from './transport/routes/as-of.js';
import { setRenderedRowBudget } from './transport/serialise/row-budget.js';
import { DEFAULT_RESPONSE_CACHE } from './transport/serialise/response-cache.js';
import { type ServerState, startServer } from './transport/server.js';
import { forwardToMain } from './transport/threads/forward-to-main.js';
import { fullGc } from './transport/threads/full-gc.js';
import type { FromThread, ThreadStart, ToThread } from './transport/threads/messages.js';

const start = workerData as ThreadStart;
const main = parentPort!;
const tell = (m: FromThread): void => main.postMessage(m);
const { settings } = start;
const MB = 1024 * 1024;
// Lines go through the thread's stdout, which hands each write whole to the process's stdout.
const logger = createLogger(settings.logLevel as LogLevel, process.stdout);

try {
  const redis = settings.redisUrl === null ? null : await connectRedis(settings.redisUrl, () => {}); // the main thread logs Redis's state
  const guard = new Guard(settings.quotaTz, redis === null ? null : new RedisLimits(redis), start.slots);
  guard.setKeys(start.keys, start.assignments);
  const state: ServerState = { dataset: datasetFromMessage(start.dataset), draining: false };
  setRenderedRowBudget(settings.klineTextCacheMb * MB);
  setAsOfBudget(settings.asOfCacheMb * MB);
  const meter = new RequestMeter();
  const accessLog = settings.accessLog ? new AccessLog(process.stdout, start.thread) : null;
  const server = await startServer({
    host: settings.host,
    port: start.port,
    sharedPort: true,
    guard,
    state,
    openapi: start.openapi,
    logger,
    accessLog,
    metrics: null, // /metrics is the main thread's, with every thread's figures
    service: start.service,
    pool: null, // the serving threads are the parallelism: screens and as-of tables run inline
    responseCache: settings.responseCacheMb === 0 ? null : { ...DEFAULT_RESPONSE_CACHE, budgetBytes: settings.responseCacheMb * MB },
    busyPollMs: settings.busyPollMs,
    meter,
    corsOrigins: settings.corsOrigins,
    mount: (app) => forwardToMain(app, start.forwardPort, start.forwardToken),
  });
  const postFigures = (): void => tell({ type: 'figures', requests: server.requests.snapshot(), meter: meter.state() });
  const figures = setInterval(postFigures, 500);
  const collectGarbage = fullGc();

  main.on('message', (m: ToThread) => {
    if (m.type === 'dataset') {
      state.dataset = datasetFromMessage(m.dataset); // requests keep the Dataset they started with
      tell({ type: 'swapped', version: m.dataset.version });
      void server.idle().then(collectGarbage);
    } else if (m.type === 'keys') {
      guard.setKeys(m.keys, m.assignments);
    } else if (m.type === 'figures') {
      postFigures();
    } else {
      void drain();
    }
  });

  /** As the main thread drains: 503 shutting_down at once, the listener closed, requests in flight answered. */
  async function drain(): Promise<void> {
    state.draining = true;
    server.close();
    await new Promise((resolve) => setTimeout(resolve, settings.drainGraceMs));
    await server.idle();
    clearInterval(figures);
    postFigures();
    accessLog?.flush();
    redis?.disconnect();
    server.closeAll(); // no uWS socket may be open when the thread's loop is torn down (libuv aborts the process)
    tell({ type: 'drained' });
  }

  tell({ type: 'listening' });
} catch (error) {
  tell({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
