// Composition root: settings, signals, state and limits, the edition lifecycle, keys and usage, the
// pool, the dashboard, the HTTP server (its options from compose/server-options.ts, as every serving
// thread's), the other serving threads, a clean stop (compose/shutdown.ts).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOnError, startProgram } from './loaders/config/run-program.js';
import { SERVER } from './loaders/config/settings.js';
import { DEFAULT_PLANS } from './engine/plans.js';
import type { EditionHost } from './loaders/edition/editions.js';
import type { GuardPort } from './loaders/state/state-sync.js';
import type { ServerState } from './transport/server.js';

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
// SIGINT stops (a drain once serving). Until the stop is ready below, nothing is open that a stop must close.
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
const { PART_READER_LIMITS } = await import('./loaders/edition/layout.js');
const { pointedOrNewest } = await import('./loaders/edition/stored-editions.js');
const { Reloader } = await import('./loaders/reload/reloader.js');
const { OperatorStore } = await import('./loaders/state/operator-store.js');
const { ensureFirstKeys } = await import('./loaders/state/first-keys.js');
const { keyPlanProblem } = await import('./loaders/state/key-plans.js');
const { StateStore } = await import('./loaders/state/state-store.js');
const { StateSync } = await import('./loaders/state/state-sync.js');
const { serviceInfo } = await import('./loaders/service-info.js');
const { KernelPool } = await import('./engine/pool/pool.js');
const { MIN_POOLED_AS_OF_SYMBOLS } = await import('./engine/dataset/as-of.js');
const { Guard } = await import('./transport/guard/guard.js');
const { startServer } = await import('./transport/server.js');
const { PooledScreens } = await import('./transport/stream/screen-runner.js');
const { AccessLog, createLogger, stdoutDestination } = await import('./transport/log.js');
const { serverOptionsFrom } = await import('./compose/server-options.js');
const { Shutdown } = await import('./compose/shutdown.js');
const { connectSharedLimits } = await import('./compose/shared-limits.js');
const { dashboardOf } = await import('./compose/dashboard.js');
const { startOtherThreads } = await import('./compose/other-threads.js');

startSteps.modules = performance.now() / 1000;

// JSON lines on stdout (time, level, msg, the request id where there is one); the loaders and the dashboard write plain messages through `log`.
const destination = stdoutDestination();
const logger = createLogger(settings.logLevel, destination);
const log = (line: string): void => logger.info(line);

const { host, port, snapshot: snapshotDir, state: stateDir } = settings;
/** The plans in force: PLANS_FILE's (read and checked with the settings), or the built-in table. */
const plans = settings.plansFile ?? DEFAULT_PLANS;
/** What /version and the build_info metric tell. */
const service = serviceInfo(fileURLToPath(new URL('..', import.meta.url)));

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
const shared =
  settings.redisUrl === null
    ? null
    : await connectSharedLimits(settings.redisUrl, (error) =>
        logger.error(
          { err: { message: error.message } },
          'Redis: connection lost; limited keys get 503 limits_unavailable until it is back',
        ),
      );

const state: ServerState = { dataset: null, draining: false, usageDurable: true };
const shutdown = new Shutdown({
  state,
  drainGraceMs: settings.drainGraceMs,
  log,
  error: (line) => logger.error(line),
  flushLog: () => destination.flushSync(),
});
const { parts } = shutdown;
if (shared !== null) parts.redis = shared.redis;
onSignal = (signal) => {
  if (signal !== 'SIGHUP') void shutdown.stop(signal);
  else hupDuringStart = true; // several count as one
};

const guard = new Guard(settings.quotaTz, shared?.limits ?? null, null, { plans });
const store = (parts.store = StateStore.open(stateDir));
/** Every stored key's plan must be in force (not a plan taken out of PLANS_FILE, or the file left out): else exit 2 naming the key. */
function checkKeyPlans(): void {
  const problem = keyPlanProblem(store.keys.list(), plans);
  if (problem !== null) throw new SettingError(problem);
}
checkKeyPlans(); // before the data load: a mistake costs no wait

// ---- The edition lifecycle: the start is its first pass, SIGHUP and the dashboard's button the next ones.
/** This thread's server as the edition lifecycle sees it. */
const thisServer: EditionHost = {
  swap: (dataset) => {
    state.dataset = dataset; // requests keep the Dataset they started with
    parts.server?.stream.published(dataset); // its messages to this thread's sockets, while the one before is still open
  },
  // Once no request of this thread reads the edition before (its maps are then closed): its other memory goes back in one pause.
  released: (dataset) =>
    (parts.server?.released(dataset) ?? Promise.resolve()).then(() => parts.server?.caches.collector.released()),
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
  void shutdown.stop('damaged data', canStore ? 1 : 2);
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

// ---- Keys and usage. With Redis, the shared key table first: a second instance takes the keys there rather than making its own first keys.
if (shared !== null)
  parts.mirror = await shared.KeyMirror.start(store, shared.keyTable(), {
    onChanged: () => sync.reloadKeys(),
    onError: (error) => shared.down(error as Error),
  });
checkKeyPlans(); // the keys Redis holds too
const issued = await ensureFirstKeys(store.keys);
if (issued.length > 0) {
  // Shown once on stderr, a terminal's, never in the log (stdout), which must not hold a secret.
  console.error('First start: one key per plan. They are shown this once; store them now.');
  for (const { record, key } of issued) console.error(`  ${record.plan.padEnd(10)} ${key}`);
}
/** The guard as the state sync sees it: a new key table also goes to the other serving threads. */
const syncedGuard: GuardPort = {
  setKeys: (records) => {
    try {
      guard.setKeys(records); // throws after taking the table when it left keys out (reported by the sync)
    } finally {
      parts.threads?.setKeys([...records], guard.assignments());
    }
  },
  dayLabel: (nowMs) => guard.dayLabel(nowMs),
  seedUsage: (id, counts, nowMs) => guard.seedUsage(id, counts, nowMs),
  drainDirty: (visit) => guard.drainDirty(visit), // one writer: this thread persists every thread's usage
};
const sync = (parts.sync = StateSync.start(store, syncedGuard, {
  onError: (error) => logger.error(error instanceof Error ? error.message : String(error)),
  // A full disk: the data is still served (it is mapped), the counts wait in memory; /readyz and /metrics say so.
  onDurable: (durable, error) => {
    state.usageDurable = durable;
    parts.threads?.setDurable(durable);
    if (durable) logger.info('usage: the state folder takes writes again; the counts held in memory are written');
    else
      logger.error(
        `usage: not durable: ${error?.message ?? 'the state folder refused a write'}; counts are held in memory and written again every second`,
      );
  },
}));

// ---- The pool: screens, as-of tables and every serving thread's standing screens. Its workers open each edition
// themselves (pool-source.js): its columns are views of the memory map, never posted.
const kernels = (parts.kernels = new KernelPool(settings.poolThreads, POOL_SOURCE_MODULE, PART_READER_LIMITS));
const standingScreens = new PooledScreens(kernels);

// ---- The operator dashboard: /dashboard and /admin/api on the same server.
const operator = (parts.operator = OperatorStore.open(stateDir));
const generated = await operator.ensurePassword();
if (generated !== null)
  console.error(
    `First start: operator password for /dashboard (shown this once; change it with npm run admin -- set-password): ${generated}`,
  );
const { meter, reloads, admin } = dashboardOf({
  settings,
  store,
  operator,
  guard,
  plans,
  sync,
  state,
  reloader,
  threads: () => parts.threads ?? null,
  routes: () => {
    const requests = parts.server!.requests;
    return (parts.threads === undefined ? requests : requests.combined(parts.threads.requestFigures())).cells();
  },
  log,
});
reloads.recordStart({ version: served.meta.version, seconds: loadSeconds });

// ---- The HTTP server; with THREADS ≥ 2 this thread also answers the dashboard and /metrics for the others, on a loopback port.
const otherThreads = settings.threads - 1;
const accessLog = settings.accessLog
  ? (parts.accessLog = new AccessLog(destination, otherThreads > 0 ? 0 : null))
  : null;
const server = await startServer(
  serverOptionsFrom(settings, {
    port,
    plans,
    guard,
    state,
    logger,
    accessLog,
    service,
    meter,
    pool: { kernels, minScreenRows: settings.screenPoolMinRows, minAsOfSymbols: MIN_POOLED_AS_OF_SYMBOLS },
    streamScreens: standingScreens,
    mount: admin.mount,
    metrics: settings.metrics
      ? {
          reloads: () => ({ counts: reloads.counts, lastSeconds: reloads.last?.outcome.seconds ?? null }),
          poolQueue: () => kernels.queueSize,
        }
      : null,
    ...(otherThreads > 0
      ? {
          sharedPort: true,
          forwardListen: true,
          peerRequests: () => parts.threads?.requestFigures() ?? [],
          peerStreams: () => parts.threads?.streamFigures() ?? [],
        }
      : {}),
  }),
)
  .then((started) => (parts.server = started))
  .catch(async (error: unknown) => {
    // Taken since the check (or not bindable): exit 2 with the address and, when it can still be seen, the reason.
    throw error instanceof Error && error.message.startsWith('cannot listen') ? await listenFailure(host, port) : error;
  });
startSteps.listening = performance.now() / 1000;

if (otherThreads > 0) {
  parts.threads = await (parts.threadsStarting = startOtherThreads(otherThreads, {
    settings,
    server,
    edition: { stateDir, version: served.meta.version },
    guard,
    keys: store.keys.list(),
    plans,
    service,
    screens: standingScreens,
    // A lost thread would leave its share of connections unanswered: stop, and let the supervisor restart the whole.
    failed: (thread, message) => {
      logger.fatal({ thread }, `serving thread ${thread} failed: ${message}`);
      destination.flushSync();
      process.exit(1);
    },
  }));
  if (!sync.durable) parts.threads.setDurable(false); // a disk that filled while they started
}

// From now on every publication reaches the other serving threads and the pool's workers too.
editions.attach({
  publish: (version) => parts.threads?.publish(version) ?? Promise.resolve(),
  released: (version) => parts.threads?.released(version) ?? Promise.resolve(),
  setLive: (keys) => kernels.setLive(keys),
});
onSignal = (signal) => void (signal === 'SIGHUP' ? reloads.run() : shutdown.stop(signal)); // reloads.run() = reloader.reload(), recorded for the dashboard
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
