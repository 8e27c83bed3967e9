// Composition root: options, snapshot, keys and limits, HTTP server, clean stop.

import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseArgs } from 'node:util';
import { generateDemoSnapshot } from './bench/data-gen/index.js';
import { ensureDataset } from './loaders/ensure-dataset.js';
import { Reloader } from './loaders/reload/reloader.js';
import { OperatorStore } from './loaders/state/operator-store.js';
import { ensureFirstKeys } from './loaders/state/first-keys.js';
import { resolveStateDir, StateStore } from './loaders/state/state-store.js';
import { StateSync } from './loaders/state/state-sync.js';
import { DEFAULT_MIN_SCREEN_ROWS, defaultPoolThreads, KernelPool } from './engine/pool/pool.js';
import { mailerFromEnv } from './transport/admin/key-mail.js';
import { RequestMeter } from './transport/admin/meter.js';
import { createAdmin } from './transport/admin/mount.js';
import { ReloadLog } from './transport/admin/reload-log.js';
import { Guard } from './transport/guard/guard.js';
import { buildOpenApi } from './transport/openapi.js';
import { DEFAULT_RESPONSE_CACHE } from './transport/serialise/response-cache.js';
import { type ServerState, startServer } from './transport/server.js';

const log = (line: string): void => console.error(`[mdq] ${line}`);

/**
 * V8's full collection, without starting node with --expose-gc, run as V8's asynchronous
 * (incremental, concurrent) major GC: a synchronous one paused requests for tens of ms.
 */
function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'async' }) => Promise<void>;
  return () => void gc({ type: 'major', execution: 'async' });
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    snapshot: { type: 'string' },
    state: { type: 'string' },
  },
});
const port = Number(values.port ?? process.env.PORT ?? 8080);
const host = values.host ?? process.env.HOST ?? '127.0.0.1';
const snapshotDir = values.snapshot ?? process.env.SNAPSHOT_DIR ?? null;
const stateDir = resolveStateDir(values.state);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port/PORT must be 0–65535, got ${values.port ?? process.env.PORT}`);

/** A whole-number setting from the environment, or a clear error naming it (never NaN at run time). */
function intSetting(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, got '${raw}'`);
  return value;
}

const guard = new Guard(process.env.QUOTA_TZ ?? 'UTC'); // an unknown zone fails here, before anything starts
const opened = await ensureDataset({
  stateDir,
  snapshotDir,
  demoDir: fileURLToPath(new URL('../snapshots/demo', import.meta.url)),
  generateDemo: (dir) => generateDemoSnapshot(dir),
  log,
});

const store = StateStore.open(stateDir);
const issued = await ensureFirstKeys(store.keys);
if (issued.length > 0) {
  console.log('First start: one key per plan. They are shown this once; store them now.');
  for (const { record, key } of issued) console.log(`  ${record.plan.padEnd(10)} ${key}`);
}
const sync = StateSync.start(store, guard);
const state: ServerState = { dataset: opened.dataset, draining: false };
const kernels = new KernelPool(intSetting('POOL_THREADS', defaultPoolThreads(), 1));
const pool = { kernels, minScreenRows: intSetting('SCREEN_POOL_MIN_ROWS', DEFAULT_MIN_SCREEN_ROWS, 0) };
/** How long open connections keep getting 503 shutting_down (not a dropped socket) before exit. */
const DRAIN_GRACE_MS = intSetting('DRAIN_GRACE_MS', 500, 0);
const busyPollMs = intSetting('BUSY_POLL_MS', 0, 0);
const cacheMb = intSetting('RESPONSE_CACHE_MB', DEFAULT_RESPONSE_CACHE.budgetBytes / (1024 * 1024), 0);
const responseCache = cacheMb === 0 ? null : { ...DEFAULT_RESPONSE_CACHE, budgetBytes: cacheMb * 1024 * 1024 };
// The operator dashboard: /dashboard and /admin/api on the same server.
const operator = OperatorStore.open(stateDir);
const generated = await operator.ensurePassword();
if (generated !== null) console.log(`First start: operator password for /dashboard (shown this once; change it with npm run admin -- set-password): ${generated}`);
const meter = new RequestMeter();
const reloads = new ReloadLog(() => reloader.reload()); // SIGHUP and the dashboard's button, one Reloader
const admin = createAdmin({ store, operator, guard, sync, state, reloads, meter, mailer: mailerFromEnv(), origin: process.env.ADMIN_ORIGIN ?? null, log });
const server = await startServer({ host, port, guard, state, openapi: JSON.stringify(buildOpenApi()), pool, responseCache, busyPollMs, meter, mount: admin.mount, corsOrigins: process.env.CORS_ORIGINS ?? '*' });
console.log(`Serving ${opened.dataset.version} at http://${host}:${server.port}/api/v1 (health: /healthz)`);

const collectGarbage = fullGc();
const reloader = new Reloader({
  stateDir,
  folder: snapshotDir,
  current: () => state.dataset!,
  swap: (next) => {
    state.dataset = next; // requests keep the Dataset they started with
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
    log(`drain: not finished after ${DRAIN_LIMIT_MS} ms; exiting`);
    process.exit(1);
  }, DRAIN_LIMIT_MS).unref();
  // Requests already sent on open connections are answered 503 (Connection: close) rather
  // than cut off: give them a moment to arrive before the process takes the sockets down.
  await new Promise((resolve) => setTimeout(resolve, DRAIN_GRACE_MS));
  await server.idle();
  await kernels.close();
  await sync.close(); // the last usage counts reach the disk before exit
  await store.close();
  await operator.close();
  log('drained; bye');
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
