// Starts the API server with the operator dashboard mounted, in process, on port 0: clock, mailer and folder injected.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuiltInPlanName } from '../../../engine/plans.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { Editions } from '../../../loaders/edition/editions.js';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { type ReloadProgress, Reloader } from '../../../loaders/reload/reloader.js';
import { OperatorStore } from '../../../loaders/state/operator-store.js';
import { StateStore } from '../../../loaders/state/state-store.js';
import { StateSync } from '../../../loaders/state/state-sync.js';
import type { KeyMailer } from '../../../transport/admin/key-mail.js';
import { RequestMeter } from '../../../transport/admin/meter.js';
import { createAdmin } from '../../../transport/admin/mount.js';
import type { RouteCount } from '../../../transport/admin/ports.js';
import { ReloadLog } from '../../../transport/admin/reload-log.js';
import { Guard } from '../../../transport/guard/guard.js';
import { type RunningServer, type ServerLog, startServer, type ServerState } from '../../../transport/server.js';
import { httpRequest } from '../../helpers/api-server.js';
import { fixtureCopy } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

export const PASSWORD = 'correct horse battery staple';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

export interface Call {
  method?: string;
  cookie?: string | null;
  /** The Origin header: the server's own by default; null sends none. */
  origin?: string | null;
  csrf?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A signed-in operator: the cookie to send back and the session's CSRF token. */
export interface Operator {
  cookie: string;
  csrf: string;
}

export interface AdminServer {
  port: number;
  /** `http://127.0.0.1:<port>`: the origin the dashboard expects. */
  origin: string;
  /** Moves the injected clock (ms). */
  clock: { ms: number };
  keys: Record<BuiltInPlanName, string>;
  /** The folder holding the stored snapshot, `state/` and `operator/` (kept by `close({ keepState: true })`). */
  stateDir: string;
  store: StateStore;
  guard: Guard;
  sync: StateSync;
  operator: OperatorStore;
  state: ServerState;
  reloads: ReloadLog;
  reloader: Reloader;
  /** Every progress report of every reload pass so far, in order. */
  progress: ReloadProgress[];
  meter: RequestMeter;
  /** The snapshot folder the reloader reads (a copy of the fixture; edit it to make a new version). */
  folder: string;
  call(path: string, options?: Call): Promise<Answer>;
  signIn(password?: string): Promise<Operator>;
  /** POST with the operator's cookie and token and the server's Origin. */
  write(op: Operator, path: string, body?: unknown): Promise<Answer>;
  /** Stops as main.ts does (server, then the sync's last flush, then the stores); `keepState` leaves the folder for a restart. */
  close(options?: { keepState?: boolean }): Promise<void>;
}

export interface AdminServerOptions {
  mailer?: KeyMailer | null;
  idleMs?: number;
  /** The per-route counts the usage page shows (main.ts: the server's RequestMetrics); none by default. */
  routes?: (() => RouteCount[]) | null;
  /** Replaces the Reloader behind the ReloadLog (a test holding a pass at a stage). */
  reload?: { run: () => Promise<any>; progress: () => any };
  /** ADMIN_ORIGIN (none by default: the dashboard answers at 127.0.0.1, and the helper's Origin is `http://127.0.0.1:<port>`). */
  adminOrigin?: string | null;
  /** Start again on the state folder of this server, closed with `keepState`: same keys, snapshot folder and clock. */
  restartOf?: AdminServer;
  /** The server's own log (its internal errors, the dashboard's included); none by default. */
  logger?: ServerLog | null;
}

export async function startAdminServer(options: AdminServerOptions = {}): Promise<AdminServer> {
  const previous = options.restartOf ?? null;
  const dir =
    previous === null
      ? await tempDir('mdq-admin-')
      : { path: previous.stateDir, cleanup: () => rm(previous.stateDir, { recursive: true, force: true }) };
  const folder = previous?.folder ?? (await fixtureCopy(join(dir.path, 'snapshot')));
  if (previous === null) await storeEdition(folder, dir.path, { threads: 0 });
  const store = StateStore.open(dir.path);
  const operator = OperatorStore.open(dir.path);
  if (previous === null) await operator.setPassword(PASSWORD);
  const keys = previous?.keys ?? ({} as Record<BuiltInPlanName, string>);
  if (previous === null)
    for (const plan of ['free', 'pro', 'enterprise', 'internal'] as const)
      keys[plan] = (await store.keys.create(plan, `${plan} desk`)).key;
  const clock = previous?.clock ?? { ms: Date.now() };
  const now = (): number => clock.ms;
  const guard = new Guard('UTC');
  const sync = StateSync.start(store, guard, { now });
  const state: ServerState = { dataset: null, draining: false };
  const progress: ReloadProgress[] = [];
  // As main.ts: the stored edition opened and published by the lifecycle's first pass, reloads by the same Reloader.
  const editions = new Editions({ stateDir: dir.path, keep: 2, log: () => {} });
  let server: RunningServer | null = null;
  const host = {
    swap: (next: Dataset) => void (state.dataset = next),
    released: (d: Dataset) => server?.released(d) ?? Promise.resolve(),
  };
  const reloader = new Reloader({
    stateDir: dir.path,
    folder,
    editions,
    host,
    log: () => {},
    onProgress: (p) => progress.push(p),
  });
  await reloader.start(null);
  const dataset = state.dataset!;
  const reloads = options.reload
    ? new ReloadLog(options.reload.run, now, options.reload.progress)
    : new ReloadLog(
        () => reloader.reload(),
        now,
        () => reloader.progress,
      );
  reloads.recordStart({ version: dataset.version, seconds: 0.25 }); // as main.ts does with its start's figures
  const meter = new RequestMeter(now);
  const admin = createAdmin({
    store,
    operator,
    guard,
    plans: guard.plans,
    sync,
    state,
    reloads,
    meter,
    mailer: options.mailer ?? null,
    origin: options.adminOrigin ?? null,
    now,
    idleMs: options.idleMs,
    log: () => {},
    routes: options.routes ?? null,
  });
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    guard,
    state,
    now,
    meter,
    mount: admin.mount,
    logger: options.logger ?? null,
  });
  const origin = `http://127.0.0.1:${server.port}`;

  const call: AdminServer['call'] = (path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const origin_ = o.origin === undefined ? origin : o.origin;
    if (origin_ !== null) headers.origin = origin_;
    if (o.cookie) headers.cookie = o.cookie;
    if (o.csrf) headers['x-csrf-token'] = o.csrf;
    const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return httpRequest(server.port, path, {
      method: o.method ?? (payload === undefined ? 'GET' : 'POST'),
      headers,
      body: payload,
    });
  };

  const signIn: AdminServer['signIn'] = async (password = PASSWORD) => {
    const a = await call('/admin/api/sign-in', { body: { password } });
    if (a.status !== 200) throw new Error(`sign-in answered ${a.status}: ${a.text}`);
    const setCookie = ([] as string[]).concat(a.headers['set-cookie'] ?? [])[0];
    return { cookie: setCookie.split(';')[0], csrf: a.body.csrf };
  };

  return {
    port: server.port,
    origin,
    clock,
    keys,
    stateDir: dir.path,
    store,
    guard,
    sync,
    operator,
    state,
    reloads,
    reloader,
    progress,
    meter,
    folder,
    call,
    signIn,
    write: (op, path, body = {}) => call(path, { method: 'POST', cookie: op.cookie, csrf: op.csrf, body }),
    async close({ keepState = false } = {}) {
      server.close();
      await sync.close();
      await store.close();
      await operator.close();
      if (!keepState) await dir.cleanup();
    },
  };
}

/** The id part of a key `mdq_<id>_<secret>`. */
export const idOf = (key: string): string => key.split('_')[1];
/** The secret part of a key. */
export const secretOf = (key: string): string => key.split('_')[2];

/** A server and an operator signed in to it (for a suite's `before`; its `after` closes `s`). */
export async function startSignedIn(options: AdminServerOptions = {}): Promise<{ s: AdminServer; op: Operator }> {
  const s = await startAdminServer(options);
  return { s, op: await s.signIn() };
}
