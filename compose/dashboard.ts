// The operator dashboard's parts on the main thread: its password (made on a first start), the
// request meter (this thread's, with the other serving threads' latest), the reload log (SIGHUP and
// its button run the one Reloader), the mailer, and the routes it mounts on the server.

import type { Plans } from '../engine/plans.js';
import type { ReloadOutcome, ReloadProgress } from '../engine/reload.js';
import type { OperatorStore } from '../loaders/state/operator-store.js';
import type { StateStore } from '../loaders/state/state-store.js';
import type { StateSync } from '../loaders/state/state-sync.js';
import { mailerFromEnv } from '../transport/admin/key-mail.js';
import { type MeterView, RequestMeter } from '../transport/admin/meter.js';
import { createAdmin } from '../transport/admin/mount.js';
import type { RouteCount } from '../transport/admin/ports.js';
import { ReloadLog } from '../transport/admin/reload-log.js';
import type { Guard } from '../transport/guard/guard.js';
import type { ServerState } from '../transport/server.js';
import type { ServingThreads } from '../transport/threads/serving-threads.js';
import type { ServerSettings } from './server-options.js';

export interface DashboardParts {
  settings: ServerSettings;
  store: StateStore;
  operator: OperatorStore;
  guard: Guard;
  plans: Plans;
  sync: StateSync;
  state: ServerState;
  reloader: { reload(): Promise<ReloadOutcome>; readonly progress: ReloadProgress | null };
  /** The other serving threads, once started (null before, and with THREADS=1). */
  threads: () => ServingThreads | null;
  /** Answers counted by route, status and plan over every thread. */
  routes: () => RouteCount[];
  log: (line: string) => void;
}

/** The dashboard over `parts`: its meter (what the server records every API answer into), reload log and routes. */
export function dashboardOf(parts: DashboardParts) {
  const { settings, threads } = parts;
  const meter = new RequestMeter();
  /** The dashboard's figures: this thread's, plus the other serving threads' latest. */
  const meterView: MeterView =
    settings.threads === 1
      ? meter
      : {
          get startedMs() {
            return meter.startedMs;
          },
          summary: (nowMs) => meter.combined(threads()?.meters() ?? []).summary(nowMs),
          perMinute: (nowMs) => meter.combined(threads()?.meters() ?? []).perMinute(nowMs),
        };
  // SIGHUP and the dashboard's button, one Reloader; its stages shown on the dashboard, and the load at start as the first entry.
  const reloads = new ReloadLog(
    () => parts.reloader.reload(),
    Date.now,
    () => parts.reloader.progress,
  );
  const admin = createAdmin({
    store: parts.store,
    operator: parts.operator,
    guard: parts.guard,
    plans: parts.plans,
    sync: parts.sync,
    state: parts.state,
    reloads,
    meter: meterView,
    mailer: mailerFromEnv({ SMTP_URL: settings.smtpUrl ?? '', MAIL_FROM: settings.mailFrom }),
    origin: settings.adminOrigin,
    log: parts.log,
    routes: parts.routes,
  });
  return { meter, reloads, admin };
}
