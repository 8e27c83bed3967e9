// Composition root: options, snapshot, keys and limits, HTTP server, clean stop.

import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateDemoSnapshot } from './bench/data-gen/index.js';
import { ensureDataset } from './loaders/ensure-dataset.js';
import { ensureFirstKeys } from './loaders/state/first-keys.js';
import { resolveStateDir, StateStore } from './loaders/state/state-store.js';
import { StateSync } from './loaders/state/state-sync.js';
import { Guard } from './transport/guard/guard.js';
import { buildOpenApi } from './transport/openapi.js';
import { type ServerState, startServer } from './transport/server.js';

const log = (line: string): void => console.error(`[mdq] ${line}`);

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
const server = await startServer({ host, port, guard, state, openapi: JSON.stringify(buildOpenApi()), log });
console.log(`Serving ${opened.dataset.version} at http://${host}:${server.port}/api/v1 (health: /healthz)`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  state.draining = true;
  server.close();
  await sync.close(); // the last usage counts reach the disk before exit
  await store.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
