// Composition root: settings, snapshot, keys and limits, HTTP server, clean stop.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOnError, startProgram } from './loaders/config/run-program.js';
import { SERVER } from './loaders/config/settings.js';
import type { ServerState } from './transport/server.js';
import type { ServingThreads as Threads } from './transport/threads/serving-threads.js';
import type { GuardPort } from './loaders/state/state-sync.js';
import type { MeterView } from './transport/admin/meter.js';

// Every setting read and checked first, before the rest of the program is even loaded (a
// third of a second of imports): --help exits 0, a bad setting exits 2 naming it, at once.
const settings = startProgram(SERVER).values;

const { checkListen, listenFailure } = await import('./loaders/config/listen-check.js');
const { SettingError } = await import('./loaders/config/read-settings.js');
const { lockStateFolder, StateFolderInUse } = await import('./loaders/state/instance-lock.js');
const { generateDemoSnapshot } = await import('./loaders/demo/index.js');
const { ensureDataset } = await import('./loaders/ensure-dataset.js');
const { Reloader } = await import('./loaders/reload/reloader.js');
const { OperatorStore } = await import('./loaders/state/operator-store.js');
const { ensureFirstKeys } = await import('./loaders/state/first-keys.js');
const { StateStore } = await import('./loaders/state/state-store.js');
const { StateSync } = await import('./loaders/state/state-sync.js');
const { connectRedis, RedisUnreachable } = await import('./loaders/state/redis-connect.js');
const { KeyMirror } = await import('./loaders/state/key-mirror.js');
const { RedisKeyTable } = await import('./loaders/state/redis-key-table.js');
const { KernelPool } = await import('./engine/pool/pool.js');
const { MIN_POOLED_AS_OF_SYMBOLS } = await import('./engine/dataset/as-of.js');
const { mailerFromEnv } = await import('./transport/admin/key-mail.js');
const { RequestMeter } = await import('./transport/admin/meter.js');
const { createAdmin } = await import('./transport/admin/mount.js');
const { ReloadLog } = await import('./transport/admin/reload-log.js');
const { Guard } = await import('./transport/guard/guard.js');
const { RedisLimits } = await import('./transport/guard/redis-limits.js');
const { buildOpenApi } = await import('./transport/openapi.js');
const { setRenderedRowBudget } = await import('./transport/serialise/row-budget.js');
const { setAsOfBudget } = await import('./transport/routes/as-of.js');
const { DEFAULT_RESPONSE_CACHE } = await import('./transport/serialise/response-cache.js');
const { startServer } = await import('./transport/server.js');
const { fullGc } = await import('./transport/threads/full-gc.js');
const { ServingThreads } = await import('./transport/threads/serving-threads.js');
const { datasetMessage } = await import('./engine/dataset/dataset-message.js');
const { acceptForwarded } = await import('./transport/http/forwarded.js');
const { randomBytes } = await import('node:crypto');
const { AccessLog, createLogger, stdoutDestination } = await import('./transport/log.js');

// JSON lines on stdout (decisions §11); the loaders and the dashboard write plain messages through `log`.
const destination = stdoutDestination();
const logger = createLogger(settings.logLevel, destination);
const log = (line: string): void => logger.info(line);

/** What /version tells: the package's version and the commit of this checkout ('unknown' outside git). */
function serviceInfo(): { version: string; commit: string } {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const git = spawnSync('git', ['-C', root, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' });
  return { version, commit: git.status === 0 ? git.stdout.trim() : 'unknown' };
}

const MB = 1024 * 1024;
const { host, port, snapshot: snapshotDir, state: stateDir } = settings;

/**
 * Until it serves, an operator's mistake ends the process with one line: exit 2 for a
 * setting or a taken port, 1 for a rejected snapshot or a folder it may not write. A bug
 * keeps its stack trace.
 */
const startFailed = (error: unknown): never => exitOnError(SERVER, error);
process.on('uncaughtException', startFailed);

await checkListen(host, port); // a taken port is refused before the data load, not after it
// A second server on this state folder is refused (exit 2) before it writes anything there.
await lockStateFolder(stateDir).catch((error: unknown) => {
  throw error instanceof StateFolderInUse ? new SettingError(error.message) : error;
});
// REDIS_URL: limits and keys shared by every instance. Unreachable now is an operator's mistake (exit 2), before the data load.
const redis = settings.redisUrl === null ? null : await connectRedis(settings.redisUrl, (error) => redisDown(error)).catch((error: unknown) => {
  throw error instanceof RedisUnreachable ? new SettingError(error.message) : error;
});
let redisDownLoggedAt = -Infinity;
/** ioredis reports every failed reconnect: one line every ten seconds is enough. */
function redisDown(error: Error): void {
  const t = performance.now();
  if (t - redisDownLoggedAt >= 10_000) (redisDownLoggedAt = t), logger.error({ err: { message: error.message } }, 'Redis: connection lost; limited keys get 503 limits_unavailable until it is back');
}
const guard = new Guard(settings.quotaTz, redis === null ? null : new RedisLimits(redis));
const loadStarted = performance.now();
const opened = await ensureDataset({
  stateDir,
  snapshotDir,
  demoDir: fileURLToPath(new URL('../snapshots/demo', import.meta.url)),
  generateDemo: (dir) => generateDemoSnapshot(dir),
  log,
});
const loadSeconds = (performance.now() - loadStarted) / 1000;

const store = StateStore.open(stateDir);
// With Redis, the shared key table first: a second instance takes the keys there rather than making its own first keys.
const mirror = redis === null ? null : await KeyMirror.start(store, new RedisKeyTable(redis), { onChanged: () => sync.reloadKeys(), onError: (error) => redisDown(error as Error) });
const issued = await ensureFirstKeys(store.keys);
if (issued.length > 0) {
  // Shown once on stderr, a terminal's, never in the log (stdout), which must not hold a secret.
  console.error('First start: one key per plan. They are shown this once; store them now.');
  for (const { record, key } of issued) console.error(`  ${record.plan.padEnd(10)} ${key}`);
}
/** THREADS ≥ 2: the other serving threads, started once this thread listens. */
let threads: Threads | null = null;
const otherThreads = settings.threads - 1;
/** The guard as the state sync sees it: a new key table also goes to the other serving threads. */
const syncedGuard: GuardPort = {
  setKeys: (records) => {
    guard.setKeys(records);
    threads?.setKeys([...records], guard.assignments());
  },
  dayLabel: (nowMs) => guard.dayLabel(nowMs),
  seedUsage: (...usage) => guard.seedUsage(...usage),
  drainDirty: (visit) => guard.drainDirty(visit), // one writer: this thread persists every thread's usage
};
const sync = StateSync.start(store, syncedGuard);
const state: ServerState = { dataset: opened.dataset, draining: false };
const kernels = new KernelPool(settings.poolThreads);
const pool = { kernels, minScreenRows: settings.screenPoolMinRows, minAsOfSymbols: MIN_POOLED_AS_OF_SYMBOLS };
const responseCache = settings.responseCacheMb === 0 ? null : { ...DEFAULT_RESPONSE_CACHE, budgetBytes: settings.responseCacheMb * MB };
setRenderedRowBudget(settings.klineTextCacheMb * MB);
setAsOfBudget(settings.asOfCacheMb * MB);
// The operator dashboard: /dashboard and /admin/api on the same server.
const operator = OperatorStore.open(stateDir);
const generated = await operator.ensurePassword();
if (generated !== null) console.error(`First start: operator password for /dashboard (shown this once; change it with npm run admin -- set-password): ${generated}`);
const meter = new RequestMeter();
/** The dashboard's figures: this thread's, plus the other serving threads' latest. */
const meterView: MeterView = otherThreads === 0 ? meter : {
  get startedMs() {
    return meter.startedMs;
  },
  summary: (nowMs) => meter.combined(threads?.meters() ?? []).summary(nowMs),
  perMinute: (nowMs) => meter.combined(threads?.meters() ?? []).perMinute(nowMs),
};
const requestFigures = () => (threads === null ? server.requests : server.requests.combined(threads.requestFigures()));
// SIGHUP and the dashboard's button, one Reloader; its stages shown on the dashboard, and the load at start as the first entry.
const reloads = new ReloadLog(() => reloader.reload(), Date.now, () => reloader.progress);
reloads.recordStart({ version: opened.dataset.version, seconds: loadSeconds });
const mailer = mailerFromEnv({ SMTP_URL: settings.smtpUrl ?? '', MAIL_FROM: settings.mailFrom });
const admin = createAdmin({ store, operator, guard, sync, state, reloads, meter: meterView, mailer, origin: settings.adminOrigin, log, routes: () => requestFigures().cells() });
const metrics = settings.metrics ? { reloads: () => ({ counts: reloads.counts, lastSeconds: reloads.last?.outcome.seconds ?? null }), poolQueue: () => kernels.queueSize } : null;
const accessLog = settings.accessLog ? new AccessLog(destination, otherThreads > 0 ? 0 : null) : null;
const openapi = JSON.stringify(buildOpenApi());
const service = serviceInfo();
// Several serving threads share the port (SO_REUSEPORT): this one also answers the dashboard and /metrics for the others, on a loopback port.
const shared = otherThreads > 0 ? { sharedPort: true, forwardListen: true, peerRequests: () => threads?.requestFigures() ?? [], refreshPeers: () => threads?.refreshFigures() ?? Promise.resolve() } : {};
const serverOptions = { host, port, guard, state, openapi, logger, accessLog, metrics, service, pool, responseCache, busyPollMs: settings.busyPollMs, meter, mount: admin.mount, corsOrigins: settings.corsOrigins, ...shared };
const server = await startServer(serverOptions).catch(async (error: unknown) => {
  // Taken since the check (or not bindable): exit 2 with the address and, when it can still be seen, the reason.
  throw error instanceof Error && error.message.startsWith('cannot listen') ? await listenFailure(host, port) : error;
});

if (otherThreads > 0) {
  const forwardToken = randomBytes(16).toString('hex');
  acceptForwarded(forwardToken);
  const { quotaTz, klineTextCacheMb, asOfCacheMb, responseCacheMb, busyPollMs, drainGraceMs, corsOrigins, redisUrl, accessLog: accessLogOn, logLevel } = settings;
  threads = await ServingThreads.start(
    otherThreads,
    {
      settings: { host, quotaTz, klineTextCacheMb, asOfCacheMb, responseCacheMb, busyPollMs, drainGraceMs, corsOrigins, redisUrl, accessLog: accessLogOn, logLevel },
      port: server.port,
      forwardPort: server.forwardPort!,
      forwardToken,
      dataset: datasetMessage(state.dataset!),
      slots: guard.slots.buffer,
      keys: store.keys.list(),
      assignments: guard.assignments(),
      openapi,
      service,
    },
    (thread, message) => {
      // A lost thread would leave its share of connections unanswered: stop, and let the supervisor restart the whole.
      logger.fatal({ thread }, `serving thread ${thread} failed: ${message}`);
      destination.flushSync();
      process.exit(1);
    },
  );
}
const collectGarbage = fullGc();
const reloader = new Reloader({
  stateDir,
  folder: snapshotDir,
  current: () => state.dataset!,
  swap: (next) => {
    state.dataset = next; // requests keep the Dataset they started with
    threads?.swap(next);
    // The old columns are SharedArrayBuffers made on the reload worker: V8 does not count
    // them as this thread's memory, so nothing prompts a collection. Once the requests
    // still on the old Dataset are done, collect explicitly (one pause per reload).
    void server.idle().then(collectGarbage);
  },
  log,
});
process.on('SIGHUP', () => void reloads.run()); // = reloader.reload(), recorded for the dashboard

/** Longest a drain may take before the process exits anyway (the usage flush included). */
const DRAIN_LIMIT_MS = 9000;
let stopping = false;

/**
 * Drain: /healthz and new requests on open connections answer 503 shutting_down (with
 * Connection: close) at once, the listening socket closes, requests in flight finish,
 * usage is flushed, exit 0. Idle keep-alive clients do not hold the exit up.
 */
async function stop(signal: string): Promise<void> {
  if (stopping) {
    log(`${signal}: already draining`);
    return;
  }
  stopping = true;
  log(`${signal}: draining`);
  state.draining = true;
  server.close();
  setTimeout(() => {
    logger.error(`drain: not finished after ${DRAIN_LIMIT_MS} ms; exiting`);
    accessLog?.flush();
    destination.flushSync();
    process.exit(1);
  }, DRAIN_LIMIT_MS).unref();
  // Requests already sent on open connections are answered 503 (Connection: close) rather
  // than cut off: give them a moment to arrive before the process takes the sockets down.
  const othersDrained = threads?.drain();
  await new Promise((resolve) => setTimeout(resolve, settings.drainGraceMs));
  await server.idle();
  await othersDrained;
  await kernels.close();
  await mirror?.tick(); // a key changed here just before the stop still reaches the other instances
  await mirror?.close();
  await sync.close(); // the last usage counts reach the disk before exit
  redis?.disconnect();
  await store.close();
  await operator.close();
  log('drained; bye');
  accessLog?.flush();
  destination.flushSync();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

// Announced only once SIGHUP and SIGTERM are handled: a signal sent on seeing this line reloads or drains, never kills.
logger.info({ data_version: opened.dataset.version, port: server.port, threads: settings.threads }, `Serving ${opened.dataset.version} at http://${host}:${server.port}/api/v1 (health: /healthz)`);
process.off('uncaughtException', startFailed);
