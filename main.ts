// Composition root: settings, snapshot, keys and limits, HTTP server, clean stop.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOnError, startProgram } from './loaders/config/run-program.js';
import { SERVER } from './loaders/config/settings.js';
import { DEFAULT_PLANS } from './engine/plans.js';
import type { RunningServer, ServerState } from './transport/server.js';
import type { AccessLog as AccessLogType } from './transport/log.js';
import type { KernelPool as KernelPoolType } from './engine/pool/pool.js';
import type { KeyMirror as KeyMirrorType } from './loaders/state/key-mirror.js';
import type { StateSync as StateSyncType } from './loaders/state/state-sync.js';
import type { StateStore as StateStoreType } from './loaders/state/state-store.js';
import type { OperatorStore as OperatorStoreType } from './loaders/state/operator-store.js';
import type { ServingThreads as Threads } from './transport/threads/serving-threads.js';
import type { GuardPort } from './loaders/state/state-sync.js';
import type { MeterView } from './transport/admin/meter.js';
import type { EditionHost } from './loaders/edition/editions.js';

// Every setting read and checked first, before the rest of the program is even loaded (a
// third of a second of imports): --help exits 0, a bad setting exits 2 naming it, at once.
const settings = startProgram(SERVER).values;
/** Seconds since the process started at each step of the start, told in the Serving line (`npm run bench` splits a start with them). */
const startSteps: Record<'settings' | 'modules' | 'data' | 'listening', number> = {
  settings: performance.now() / 1000,
  modules: 0,
  data: 0,
  listening: 0,
};

// Signals are handled from here on, before any data is read or a port listened on (Node's
// default would end the process): a SIGHUP during start reloads once serving, a SIGTERM or
// SIGINT stops (a drain once serving). Until `stop` is ready below, nothing is open that a stop must close.
let hupDuringStart = false;
let onSignal = (signal: NodeJS.Signals): void => {
  if (signal === 'SIGHUP')
    hupDuringStart = true; // several count as one
  else process.stderr.write(`${signal} during start: stopped before opening anything\n`), process.exit(0);
};
for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT'] as const) process.on(signal, () => onSignal(signal));

const { checkListen, listenFailure } = await import('./loaders/config/listen-check.js');
const { SettingError } = await import('./loaders/config/read-settings.js');
const { lockStateFolder, StateFolderInUse } = await import('./loaders/state/instance-lock.js');
const { Editions } = await import('./loaders/edition/editions.js');
const { POOL_SOURCE_MODULE } = await import('./loaders/edition/open-edition.js');
const { pointedOrNewest } = await import('./loaders/edition/stored-editions.js');
const { Reloader } = await import('./loaders/reload/reloader.js');
const { OperatorStore } = await import('./loaders/state/operator-store.js');
const { ensureFirstKeys } = await import('./loaders/state/first-keys.js');
const { keyPlanProblem } = await import('./loaders/state/key-plans.js');
const { StateStore } = await import('./loaders/state/state-store.js');
const { StateSync } = await import('./loaders/state/state-sync.js');
const { KernelPool } = await import('./engine/pool/pool.js');
const { MIN_POOLED_AS_OF_SYMBOLS } = await import('./engine/dataset/as-of.js');
const { mailerFromEnv } = await import('./transport/admin/key-mail.js');
const { RequestMeter } = await import('./transport/admin/meter.js');
const { createAdmin } = await import('./transport/admin/mount.js');
const { ReloadLog } = await import('./transport/admin/reload-log.js');
const { Guard } = await import('./transport/guard/guard.js');
const { buildOpenApi } = await import('./transport/openapi.js');
const { setRenderedRowBudget } = await import('./transport/serialise/row-budget.js');
const { setAsOfBudget } = await import('./transport/routes/as-of.js');
const { DEFAULT_RESPONSE_CACHE } = await import('./transport/serialise/response-cache.js');
const { startServer } = await import('./transport/server.js');
const { fullGc } = await import('./transport/threads/full-gc.js');
const { ServingThreads } = await import('./transport/threads/serving-threads.js');
const { PooledScreens } = await import('./transport/stream/screen-runner.js');
const { acceptForwarded } = await import('./transport/http/forwarded.js');
const { randomBytes } = await import('node:crypto');
const { AccessLog, createLogger, stdoutDestination } = await import('./transport/log.js');

startSteps.modules = performance.now() / 1000;

// JSON lines on stdout (time, level, msg, the request id where there is one); the loaders and the dashboard write plain messages through `log`.
const destination = stdoutDestination();
const logger = createLogger(settings.logLevel, destination);
const log = (line: string): void => logger.info(line);

/** What /version tells: the package's version and the commit of this checkout ('unknown' outside git). */
function serviceInfo(): { version: string; commit: string } {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, commit: checkoutCommit(root) };
}

/** The commit HEAD names, read from the git folder (no `git` process at start): 12 hex digits, or 'unknown'. */
function checkoutCommit(root: string): string {
  try {
    let git = join(root, '.git');
    if (!statSync(git).isDirectory())
      git = resolve(
        root,
        readFileSync(git, 'utf8')
          .replace(/^gitdir:\s*/, '')
          .trim(),
      ); // a worktree
    const head = readFileSync(join(git, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (ref === undefined) return head.slice(0, 12);
    const common = existsSync(join(git, 'commondir'))
      ? resolve(git, readFileSync(join(git, 'commondir'), 'utf8').trim())
      : git;
    for (const dir of [git, common])
      if (existsSync(join(dir, ref))) return readFileSync(join(dir, ref), 'utf8').trim().slice(0, 12);
    const packed = readFileSync(join(common, 'packed-refs'), 'utf8')
      .split('\n')
      .find((line) => line.endsWith(` ${ref}`));
    return packed === undefined ? 'unknown' : packed.slice(0, 12);
  } catch {
    return 'unknown';
  }
}

const MB = 1024 * 1024;
const { host, port, snapshot: snapshotDir, state: stateDir } = settings;
/** The plans in force: PLANS_FILE's (read and checked with the settings), or the built-in table. */
const plans = settings.plansFile ?? DEFAULT_PLANS;

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
// Redis's modules (ioredis) only when REDIS_URL is set: a server without it starts without them.
const redisParts =
  settings.redisUrl === null
    ? null
    : {
        ...(await import('./loaders/state/redis-connect.js')),
        ...(await import('./loaders/state/key-mirror.js')),
        ...(await import('./loaders/state/redis-key-table.js')),
        ...(await import('./transport/guard/redis-limits.js')),
      };
const redis =
  redisParts === null
    ? null
    : await redisParts
        .connectRedis(settings.redisUrl!, (error) => redisDown(error))
        .catch((error: unknown) => {
          throw error instanceof redisParts.RedisUnreachable ? new SettingError(error.message) : error;
        });
let redisDownLoggedAt = -Infinity;
/** ioredis reports every failed reconnect: one line every ten seconds is enough. */
function redisDown(error: Error): void {
  const t = performance.now();
  if (t - redisDownLoggedAt >= 10_000)
    (redisDownLoggedAt = t),
      logger.error(
        { err: { message: error.message } },
        'Redis: connection lost; limited keys get 503 limits_unavailable until it is back',
      );
}
/** What a stop closes, as far as the start has opened it. */
const parts: {
  server?: RunningServer;
  threads?: Threads;
  kernels?: KernelPoolType;
  mirror?: KeyMirrorType;
  sync?: StateSyncType;
  store?: StateStoreType;
  operator?: OperatorStoreType;
  accessLog?: AccessLogType;
} = {};
const state: ServerState = { dataset: null, draining: false, usageDurable: true };
/**
 * The other serving threads while they start: a stop in that moment (this thread already
 * serves) waits for them to listen, then drains them. A thread ended while its server is open
 * would abort the process (uv_loop_close with open handles), not exit.
 */
let threadsStarting: Promise<Threads> | null = null;

/** Longest a drain may take before the process exits anyway (the usage flush included). */
const DRAIN_LIMIT_MS = 9000;
let stopping = false;

/**
 * Drain: /healthz and new requests on open connections answer 503 shutting_down (with
 * Connection: close) at once, the listening socket closes, requests in flight finish,
 * usage is flushed, exit 0. Idle keep-alive clients do not hold the exit up. During start,
 * what has opened so far is closed and the process exits 0 without serving.
 */
async function stop(signal: string, exitCode = 0): Promise<void> {
  if (stopping) {
    log(`${signal}: already ${parts.server === undefined ? 'stopping' : 'draining'}`);
    return;
  }
  stopping = true;
  const { server, kernels, mirror, sync, store, operator } = parts;
  state.draining = true;
  parts.threads?.refuseNow(); // every thread refuses new requests before the drain is announced
  log(server === undefined ? `${signal} during start: stopping before serving` : `${signal}: draining`);
  setTimeout(() => {
    logger.error(`drain: not finished after ${DRAIN_LIMIT_MS} ms; exiting`);
    parts.accessLog?.flush();
    destination.flushSync();
    process.exit(1);
  }, DRAIN_LIMIT_MS).unref();
  if (server !== undefined) {
    server.close();
    server.stream.goingAway(); // every WebSocket of this thread is sent 1001; the other threads' as they drain
    // Requests already sent on open connections are answered 503 (Connection: close) rather
    // than cut off: give them a moment to arrive before the process takes the sockets down.
    const threads = parts.threads ?? (await threadsStarting?.catch(() => undefined));
    const othersDrained = threads?.drain();
    await new Promise((resolve) => setTimeout(resolve, settings.drainGraceMs));
    await server.idle();
    await othersDrained;
  }
  await kernels?.close();
  await mirror?.tick(); // a key changed here just before the stop still reaches the other instances
  await mirror?.close();
  await sync?.close(); // the last usage counts reach the disk before exit
  redis?.disconnect();
  await store?.close();
  await operator?.close();
  log(server === undefined ? 'stopped before serving; bye' : 'drained; bye');
  parts.accessLog?.flush();
  destination.flushSync();
  process.exit(exitCode);
}
onSignal = (signal) => {
  if (signal !== 'SIGHUP') void stop(signal);
  else hupDuringStart = true; // several count as one
};

const guard = new Guard(settings.quotaTz, redis === null ? null : new redisParts!.RedisLimits(redis), null, { plans });
const store = (parts.store = StateStore.open(stateDir));
/** Every stored key's plan must be in force (not a plan taken out of PLANS_FILE, or the file left out): else exit 2 naming the key. */
function checkKeyPlans(): void {
  const problem = keyPlanProblem(store.keys.list(), plans);
  if (problem !== null) throw new SettingError(problem);
}
checkKeyPlans(); // before the data load: a mistake costs no wait
const collectGarbage = fullGc();
/** This thread's server as the edition lifecycle sees it. */
const thisServer: EditionHost = {
  swap: (dataset) => {
    state.dataset = dataset; // requests keep the Dataset they started with
    parts.server?.stream.published(dataset); // its messages to this thread's sockets, while the one before is still open
  },
  // Once no request of this thread reads the edition before (its maps are then closed): its other memory goes back in one pause.
  released: (dataset) => (parts.server?.released(dataset) ?? Promise.resolve()).then(collectGarbage),
};
/**
 * A part of the edition served failed its content check (checked in the background after each
 * publish): it is set aside already; serving stops (a drain), for it may answer wrong numbers.
 * Exit 1 when a restart can store it again from the snapshot folder (systemd restarts on 1), 2
 * when it cannot (an operator must give the folder).
 */
function damagedPart(damage: { message: string }, served: boolean): void {
  if (!served) return logger.error(`${damage.message}; set aside (no longer served)`);
  const again = snapshotDir ?? editions.served?.meta.source ?? null;
  const canStore = again !== null && existsSync(again);
  logger.fatal(
    `${damage.message}; set aside, and this server stops: ${canStore ? `a restart stores it again from ${again}` : 'no snapshot folder to store it again from (give one: --snapshot or SNAPSHOT_DIR)'}`,
  );
  void stop('damaged data', canStore ? 1 : 2);
}
const editions = new Editions({ stateDir, keep: settings.keepEditions, log, onDamaged: damagedPart });
const reloader = new Reloader({
  stateDir,
  folder: snapshotDir,
  editions,
  host: thisServer,
  log,
  startProgressOut: process.stderr,
});
/** The built-in demo snapshot's folder, generated first when it holds none. */
async function demoFolder(): Promise<string> {
  const dir = fileURLToPath(new URL('../snapshots/demo', import.meta.url));
  if (!existsSync(join(dir, 'manifest.json'))) {
    log(`no snapshot stored yet: generating the built-in demo snapshot (synthetic data) into ${dir}`);
    const { generateDemoSnapshot } = await import('./loaders/demo/index.js'); // its generator only for a first start
    await generateDemoSnapshot(dir);
  }
  return dir;
}
const loadStarted = performance.now();
// The start is the first pass of the edition lifecycle: the folder given, else the stored edition as it is (the one
// current.json names, else the newest), else, for a state folder with nothing stored, the demo.
await reloader.start(snapshotDir ?? ((await pointedOrNewest(stateDir)) === null ? await demoFolder() : null));
const loadSeconds = (performance.now() - loadStarted) / 1000;
startSteps.data = performance.now() / 1000;
const served = editions.served!;
log(
  `serving ${served.meta.version} from ${served.meta.source} (${(served.mappedBytes / 1e6).toFixed(0)} MB of columns read in place, ${(served.copiedBytes / 1e6).toFixed(1)} MB copied; ${loadSeconds.toFixed(2)} s)`,
);

// With Redis, the shared key table first: a second instance takes the keys there rather than making its own first keys.
const _mirror =
  redis === null
    ? null
    : (parts.mirror = await redisParts!.KeyMirror.start(store, new redisParts!.RedisKeyTable(redis), {
        onChanged: () => sync.reloadKeys(),
        onError: (error) => redisDown(error as Error),
      }));
checkKeyPlans(); // the keys Redis holds too
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
    try {
      guard.setKeys(records); // throws after taking the table when it left keys out (reported by the sync)
    } finally {
      threads?.setKeys([...records], guard.assignments());
    }
  },
  dayLabel: (nowMs) => guard.dayLabel(nowMs),
  seedUsage: (...usage) => guard.seedUsage(...usage),
  drainDirty: (visit) => guard.drainDirty(visit), // one writer: this thread persists every thread's usage
};
const sync = (parts.sync = StateSync.start(store, syncedGuard, {
  onError: (error) => logger.error(error instanceof Error ? error.message : String(error)),
  // A full disk: the data is still served (it is mapped), the counts wait in memory; /readyz and /metrics say so.
  onDurable: (durable, error) => {
    state.usageDurable = durable;
    threads?.setDurable(durable);
    if (durable) logger.info('usage: the state folder takes writes again; the counts held in memory are written');
    else
      logger.error(
        `usage: not durable: ${error?.message ?? 'the state folder refused a write'}; counts are held in memory and written again every second`,
      );
  },
}));
// Pool workers open each edition themselves (pool-source.js): its columns are views of the memory map, never posted.
const kernels = (parts.kernels = new KernelPool(settings.poolThreads, POOL_SOURCE_MODULE));
const pool = { kernels, minScreenRows: settings.screenPoolMinRows, minAsOfSymbols: MIN_POOLED_AS_OF_SYMBOLS };
/** Standing screens of every serving thread's WebSockets: on the pool, each distinct one once per edition. */
const standingScreens = new PooledScreens(kernels);
const responseCache =
  settings.responseCacheMb === 0 ? null : { ...DEFAULT_RESPONSE_CACHE, budgetBytes: settings.responseCacheMb * MB };
setRenderedRowBudget(settings.klineTextCacheMb * MB);
setAsOfBudget(settings.asOfCacheMb * MB);
// The operator dashboard: /dashboard and /admin/api on the same server.
const operator = (parts.operator = OperatorStore.open(stateDir));
const generated = await operator.ensurePassword();
if (generated !== null)
  console.error(
    `First start: operator password for /dashboard (shown this once; change it with npm run admin -- set-password): ${generated}`,
  );
const meter = new RequestMeter();
/** The dashboard's figures: this thread's, plus the other serving threads' latest. */
const meterView: MeterView =
  otherThreads === 0
    ? meter
    : {
        get startedMs() {
          return meter.startedMs;
        },
        summary: (nowMs) => meter.combined(threads?.meters() ?? []).summary(nowMs),
        perMinute: (nowMs) => meter.combined(threads?.meters() ?? []).perMinute(nowMs),
      };
const requestFigures = () => (threads === null ? server.requests : server.requests.combined(threads.requestFigures()));
// SIGHUP and the dashboard's button, one Reloader; its stages shown on the dashboard, and the load at start as the first entry.
const reloads = new ReloadLog(
  () => reloader.reload(),
  Date.now,
  () => reloader.progress,
);
reloads.recordStart({ version: served.meta.version, seconds: loadSeconds });
const mailer = mailerFromEnv({ SMTP_URL: settings.smtpUrl ?? '', MAIL_FROM: settings.mailFrom });
const admin = createAdmin({
  store,
  operator,
  guard,
  plans,
  sync,
  state,
  reloads,
  meter: meterView,
  mailer,
  origin: settings.adminOrigin,
  log,
  routes: () => requestFigures().cells(),
});
const metrics = settings.metrics
  ? {
      reloads: () => ({ counts: reloads.counts, lastSeconds: reloads.last?.outcome.seconds ?? null }),
      poolQueue: () => kernels.queueSize,
    }
  : null;
const accessLog = settings.accessLog
  ? (parts.accessLog = new AccessLog(destination, otherThreads > 0 ? 0 : null))
  : null;
/** Made at its first request, not at start. */
const openapi = (): string => JSON.stringify(buildOpenApi(plans));
const service = serviceInfo();
// Several serving threads share the port (SO_REUSEPORT): this one also answers the dashboard and /metrics for the others, on a loopback port.
const shared =
  otherThreads > 0
    ? {
        sharedPort: true,
        forwardListen: true,
        peerRequests: () => threads?.requestFigures() ?? [],
        peerStreams: () => threads?.streamFigures() ?? [],
      }
    : {};
const serverOptions = {
  host,
  port,
  guard,
  state,
  openapi,
  logger,
  accessLog,
  metrics,
  service,
  pool,
  responseCache,
  busyPollMs: settings.busyPollMs,
  exportStallMs: settings.exportStallS * 1000,
  meter,
  streamScreens: standingScreens,
  streamIdleSeconds: settings.streamIdleSeconds,
  mount: admin.mount,
  corsOrigins: settings.corsOrigins,
  ...shared,
};
const server = await startServer(serverOptions)
  .then((started) => (parts.server = started))
  .catch(async (error: unknown) => {
    // Taken since the check (or not bindable): exit 2 with the address and, when it can still be seen, the reason.
    throw error instanceof Error && error.message.startsWith('cannot listen') ? await listenFailure(host, port) : error;
  });
startSteps.listening = performance.now() / 1000;

if (otherThreads > 0) {
  const forwardToken = randomBytes(16).toString('hex');
  acceptForwarded(forwardToken);
  const {
    quotaTz,
    klineTextCacheMb,
    asOfCacheMb,
    responseCacheMb,
    busyPollMs,
    drainGraceMs,
    exportStallS,
    corsOrigins,
    redisUrl,
    accessLog: accessLogOn,
    logLevel,
    streamIdleSeconds,
  } = settings;
  threads = parts.threads = await (threadsStarting = ServingThreads.start(
    otherThreads,
    {
      settings: {
        host,
        quotaTz,
        klineTextCacheMb,
        asOfCacheMb,
        responseCacheMb,
        busyPollMs,
        drainGraceMs,
        exportStallS,
        corsOrigins,
        redisUrl,
        accessLog: accessLogOn,
        logLevel,
        streamIdleSeconds,
      },
      port: server.port,
      edition: { stateDir, version: served.meta.version },
      slots: guard.slots.buffer,
      plans: plans.toMessage(),
      keys: store.keys.list(),
      assignments: guard.assignments(),
      service,
    },
    { listenPort: server.forwardPort!, token: forwardToken },
    (thread, message) => {
      // A lost thread would leave its share of connections unanswered: stop, and let the supervisor restart the whole.
      logger.fatal({ thread }, `serving thread ${thread} failed: ${message}`);
      destination.flushSync();
      process.exit(1);
    },
    (origin, market, q) => standingScreens.runAt(origin, market, q),
  ));
}
if (threads !== null && !sync.durable) threads.setDurable(false); // a disk that filled while they started
// From now on every publication reaches the other serving threads and the pool's workers too.
editions.attach({
  publish: (version) => threads?.publish(version) ?? Promise.resolve(),
  released: (version) => threads?.released(version) ?? Promise.resolve(),
  setLive: (keys) => kernels.setLive(keys),
});
onSignal = (signal) => void (signal === 'SIGHUP' ? reloads.run() : stop(signal)); // reloads.run() = reloader.reload(), recorded for the dashboard
editions.checkParts(); // the parts' content, in the background: the server runs whole now
// The pool's workers load their modules now (a task before would start them), not beside the start's.
kernels.start();

logger.info(
  {
    data_version: served.meta.version,
    port: server.port,
    threads: settings.threads,
    process_started: new Date(performance.timeOrigin).toISOString(),
    start_s: Object.fromEntries(Object.entries(startSteps).map(([step, s]) => [step, Number(s.toFixed(3))])),
  },
  `Serving ${served.meta.version} at http://${host}:${server.port}/api/v1 (health: /healthz)`,
);
process.off('uncaughtException', startFailed);
if (hupDuringStart) {
  log('SIGHUP during start: reading the snapshot folder again now');
  void reloads.run();
}
