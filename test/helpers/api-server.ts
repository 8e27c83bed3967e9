// Starts the real API server on port 0 over a fixture snapshot, with one key per plan, for end-to-end tests.

import { POOL_SOURCE_MODULE } from '../../loaders/edition/open-edition.js';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { StateStore } from '../../loaders/state/state-store.js';
import { StateSync } from '../../loaders/state/state-sync.js';
import { KernelPool } from '../../engine/pool/pool.js';
import { Guard } from '../../transport/guard/guard.js';
import type { BuiltInPlanName, Plans } from '../../engine/plans.js';
import { buildOpenApi } from '../../transport/openapi.js';
import { type Caches, DEFAULT_CACHE_BUDGETS } from '../../transport/caches/caches.js';
import type { ResponseCacheOptions } from '../../transport/caches/response-cache.js';
import { type RunningServer, type ServerOptions, startServer, type ServerState } from '../../transport/server.js';
import { tempDir } from './snapshot-folder.js';

/** The hand-made fixture every endpoint test reads (see snapshots/fixtures/derived). */
export const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived', import.meta.url));

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body (undefined when it is not JSON). */
  body: any;
}

export interface TestServer {
  port: number;
  keys: Record<BuiltInPlanName, string>;
  dataset: Dataset;
  state: ServerState;
  guard: Guard;
  /** The kernel pool, with `pool`. */
  kernels: KernelPool | null;
  /** The state folder (its stored editions: a test stores another and opens it to publish). */
  stateDir: string;
  /** What the server keeps (its answers per Dataset, rendered rows, as-of tables). */
  caches: Caches;
  /** The WebSockets of /api/v1/stream (`published` a new Dataset as the server swaps it). */
  stream: RunningServer['stream'];
  /** Resolves once no asynchronous request (a pool task, a stream) is in flight. */
  idle(): Promise<void>;
  /** Stops listening and cuts the exports in progress (what a drain does first), keeping the rest up. */
  stopListening(): void;
  /** GET (or another method) with an optional key and extra headers; one connection per request. */
  get(
    path: string,
    options?: { key?: string | null; method?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** One request on its own connection (`Connection: close`); the body parsed as JSON when it is JSON. */
export function httpRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const headers = { connection: 'close', ...(options.headers ?? {}) };
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A server on 127.0.0.1:0 over `snapshot` (default: the fixture); `now` injects the guard's clock. */
export async function startTestServer(
  options: {
    snapshot?: string;
    now?: () => number;
    timeZone?: string;
    pool?: boolean;
    minScreenRows?: number;
    minAsOfSymbols?: number;
    deadlineMs?: number;
    responseCache?: ResponseCacheOptions | null;
    busyPollMs?: number;
    corsOrigins?: string;
    /** The plans in force (a PLANS_FILE's); default the built-in table. */
    plans?: Plans;
  } & Pick<ServerOptions, 'metrics' | 'logger' | 'accessLog' | 'service' | 'openapi' | 'streamScreens'> = {},
): Promise<TestServer> {
  const dir = await tempDir('mdq-api-');
  await storeEdition(options.snapshot ?? FIXTURE, dir.path, { threads: 0 });
  const dataset = (await openCurrentDataset(dir.path))!;
  const store = StateStore.open(dir.path);
  const keys = {} as Record<BuiltInPlanName, string>;
  for (const plan of ['free', 'pro', 'enterprise', 'internal'] as const)
    keys[plan] = (await store.keys.create(plan, `${plan} desk`)).key;
  const guard = new Guard(options.timeZone ?? 'UTC', null, null, { plans: options.plans });
  const sync = StateSync.start(store, guard, options.now ? { now: options.now } : {});
  const state: ServerState = { dataset, draining: false };
  // With `pool`, screens run on a worker (threshold 0 unless given), so the suite covers that path too.
  const kernels = options.pool ? new KernelPool(1, POOL_SOURCE_MODULE) : null;
  const pool =
    kernels === null
      ? null
      : { kernels, minScreenRows: options.minScreenRows ?? 0, minAsOfSymbols: options.minAsOfSymbols ?? 0 };
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    guard,
    state,
    now: options.now,
    openapi: options.openapi ?? JSON.stringify(buildOpenApi()),
    pool,
    deadlineMs: options.deadlineMs,
    caches: {
      ...DEFAULT_CACHE_BUDGETS,
      answers: options.responseCache === undefined ? DEFAULT_CACHE_BUDGETS.answers : options.responseCache,
    },
    busyPollMs: options.busyPollMs,
    corsOrigins: options.corsOrigins,
    metrics: options.metrics,
    logger: options.logger,
    accessLog: options.accessLog,
    service: options.service,
    streamScreens: options.streamScreens,
  });
  const get: TestServer['get'] = (path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? keys.pro : opts.key;
    if (key !== null) headers['x-api-key'] = key;
    return httpRequest(server.port, path, { method: opts.method, headers });
  };
  return {
    port: server.port,
    keys,
    dataset,
    state,
    guard,
    kernels,
    stateDir: dir.path,
    caches: server.caches,
    stream: server.stream,
    get,
    idle: () => server.idle(),
    stopListening: () => server.close(),
    async close() {
      server.close();
      await kernels?.close();
      await sync.close();
      await store.close();
      await dir.cleanup();
    },
  };
}
