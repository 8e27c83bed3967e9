// A serving thread besides the main one (THREADS ≥ 2): the same HTTP server on the same port, its
// options composed as the main thread's are (compose/server-options.ts), over the Dataset and the key
// slots the main thread shares with it. The main thread loads, reloads, keeps the state folder and
// answers the dashboard and /metrics; this one serves.

import { parentPort, workerData } from 'node:worker_threads';
import { openEdition } from './loaders/edition/open-edition.js';
import { Plans } from './engine/plans.js';
import { serverOptionsFrom, type ThreadSettings } from './compose/server-options.js';
import { RequestMeter } from './transport/admin/meter.js';
import { Guard } from './transport/guard/guard.js';
import { AccessLog, createLogger } from './transport/log.js';
import { type ServerState, startServer } from './transport/server.js';
import { forwardToMain } from './transport/threads/forward-to-main.js';
import { RemoteScreens } from './transport/threads/remote-screens.js';
import type { FromThread, ThreadStart, ToThread } from './transport/threads/messages.js';

const start = workerData as ThreadStart<ThreadSettings>;
const main = parentPort!;
const tell = (m: FromThread): void => main.postMessage(m);
const { settings } = start;
// Lines go through the thread's stdout, which hands each write whole to the process's stdout.
const logger = createLogger(settings.logLevel, process.stdout);

try {
  // ioredis only with REDIS_URL; the main thread logs Redis's state.
  const redis =
    settings.redisUrl === null
      ? null
      : await (await import('./loaders/state/redis-connect.js')).connectRedis(settings.redisUrl, () => {});
  const limits = redis === null ? null : new (await import('./transport/guard/redis-limits.js')).RedisLimits(redis);
  const plans = Plans.fromMessage(start.plans);
  const guard = new Guard(settings.quotaTz, limits, start.slots, { plans });
  guard.setKeys(start.keys, start.assignments);
  // This thread opens each edition itself: its columns are views of the memory map, which cannot be posted without a copy.
  let served = openEdition(start.edition.stateDir, start.edition.version);
  // Draining as soon as the main thread raises the shared flag, not only once its message arrives.
  const drainRaised = new Int32Array(start.drainFlag);
  let drainingHere = false;
  const state: ServerState = {
    dataset: served.dataset,
    get draining() {
      return drainingHere || Atomics.load(drainRaised, 0) === 1;
    },
    set draining(value: boolean) {
      drainingHere = value;
    },
  };
  const meter = new RequestMeter();
  const accessLog = settings.accessLog ? new AccessLog(process.stdout, start.thread) : null;
  // Standing screens run on the main thread's pool, each distinct one once per edition over every thread.
  const screens = new RemoteScreens(tell);
  const server = await startServer(
    serverOptionsFrom(settings, {
      port: start.port,
      sharedPort: true,
      plans,
      guard,
      state,
      logger,
      accessLog,
      metrics: null, // /metrics is the main thread's, with every thread's figures
      service: start.service,
      pool: null, // the serving threads are the parallelism: screens and as-of tables run inline
      streamScreens: screens,
      meter,
      mount: (app, problemOf) =>
        forwardToMain(app, { port: start.forwardPort, signal: start.forwardSignal }, problemOf),
    }),
  );
  const postFigures = (): void => tell({ type: 'figures', meter: meter.state() });
  const figures = setInterval(postFigures, 500);

  main.on('message', (m: ToThread) => {
    if (m.type === 'edition') {
      const before = served;
      served = openEdition(start.edition.stateDir, m.version);
      state.dataset = served.dataset; // requests keep the Dataset they started with
      // Told first: the main thread (and its sockets) need not wait for this thread's fan-out.
      tell({ type: 'swapped', version: m.version });
      server.stream.published(served.dataset); // its messages to this thread's sockets, while the one before is still open
      // Closed once no request of this thread reads it (a closed map must never be read).
      void server.released(before.dataset).then(async () => {
        await before.close();
        tell({ type: 'released', version: before.meta.version });
        server.caches.collector.released();
      });
    } else if (m.type === 'keys') {
      guard.setKeys(m.keys, m.assignments); // the streams of a disabled or rotated key close (the guard tells them)
    } else if (m.type === 'durable') {
      state.usageDurable = m.durable;
    } else if (m.type === 'screen-result') {
      screens.answered(m);
    } else {
      void drain();
    }
  });

  /** As the main thread drains: 503 shutting_down at once, the listener closed, every socket sent 1001, requests in flight answered. */
  async function drain(): Promise<void> {
    state.draining = true;
    server.close();
    server.stream.goingAway();
    await new Promise((resolve) => setTimeout(resolve, settings.drainGraceMs));
    await server.idle();
    clearInterval(figures);
    postFigures();
    accessLog?.flush();
    redis?.disconnect();
    server.closeAll(); // no uWS socket may be open when the thread's loop is torn down (libuv aborts the process)
    tell({ type: 'drained' });
  }

  tell({ type: 'listening', requests: server.requests.storage, streams: server.stream.figures.storage });
} catch (error) {
  tell({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
