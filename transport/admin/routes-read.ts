// The dashboard's read pages as JSON: data, keys (with last use and 7 days of counts), usage today (with 429s, requests a minute and by route), health, the reload in progress.

import { dateText } from '../../engine/calendar/date-text.js';
import { macroOverview } from '../../engine/queries/macro-overview.js';
import { marketsOverview } from '../../engine/queries/markets-overview.js';
import type { AdminRoute } from './admin-route.js';
import type { RouteCount } from './ports.js';
import type { ReloadEntry, ReloadLog } from './reload-log.js';
import type { AdminRuntime } from './runtime.js';

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Days of counts the keys page shows per key, today included. */
const HISTORY_DAYS = 7;
const MS_PER_DAY = 86_400_000;

/** The `n` quota-day labels ending with `today` (`YYYY-MM-DD`), oldest first. */
function daysEndingWith(today: string, n: number): string[] {
  const t = Date.parse(today); // a label is its day's UTC midnight: whole days apart, whatever QUOTA_TZ
  return Array.from({ length: n }, (_, i) => new Date(t - (n - 1 - i) * MS_PER_DAY).toISOString().slice(0, 10));
}

const reloadView = (e: ReloadEntry | null) =>
  e === null
    ? null
    : {
        started: e.started,
        finished: e.finished,
        kind: e.outcome.kind,
        seconds: round3(e.outcome.seconds),
        version: 'version' in e.outcome ? e.outcome.version : null,
        reason: 'reason' in e.outcome ? e.outcome.reason : null,
        at_start: e.atStart === true,
        stages: (e.outcome.stages ?? []).map((s) => ({ stage: s.stage, seconds: round3(s.seconds) })),
      };

/** The running reload as the pages show it (null when none runs). */
function runningView(reloads: ReloadLog) {
  const r = reloads.running();
  if (r === null) return null;
  if (r.stage === null) return { started: r.started, stage: null };
  return {
    started: r.started,
    stage: r.stage,
    step: r.step,
    steps: r.steps,
    label: r.label,
    folder: r.folder,
    rows: r.rows,
    total_rows: r.totalRows,
    /** Of the current stage, 0–1, when it counts rows; null otherwise. */
    fraction: (r.stage === 'read' || r.stage === 'store') && r.totalRows > 0 ? Math.min(1, r.rows / r.totalRows) : null,
    seconds: round3(r.seconds),
    stage_seconds: round3(r.stageSeconds),
    seconds_left: r.secondsLeft === null ? null : Math.round(r.secondsLeft * 10) / 10,
    done: r.done.map((s) => ({ stage: s.stage, seconds: round3(s.seconds) })),
  };
}

/** The reload section of the data page and GET /admin/api/reload. */
export function reloadSection(reloads: ReloadLog) {
  return {
    running: runningView(reloads),
    /** The last load: the last reload pass, else the load at start (`at_start: true`). */
    last: reloadView(reloads.lastLoad),
    last_rejected: reloadView(reloads.lastRejected),
    at_start: reloadView(reloads.atStart),
  };
}

/** Requests by route since start, summed over plans, with the statuses split into classes; most requested first. */
export function byRoute(cells: RouteCount[]) {
  const rows = new Map<
    string,
    {
      route: string;
      requests: number;
      rows: number;
      ok: number;
      client_errors: number;
      too_many: number;
      server_errors: number;
      by_plan: Record<string, number>;
    }
  >();
  for (const c of cells) {
    let r = rows.get(c.route);
    if (r === undefined)
      rows.set(
        c.route,
        (r = {
          route: c.route,
          requests: 0,
          rows: 0,
          ok: 0,
          client_errors: 0,
          too_many: 0,
          server_errors: 0,
          by_plan: {},
        }),
      );
    r.requests += c.requests;
    r.rows += c.rows;
    if (c.status >= 500) r.server_errors += c.requests;
    else if (c.status >= 400) r.client_errors += c.requests;
    else r.ok += c.requests;
    if (c.status === 429) r.too_many += c.requests;
    r.by_plan[c.plan] = (r.by_plan[c.plan] ?? 0) + c.requests;
  }
  return [...rows.values()].sort((a, b) => b.requests - a.requests || (a.route < b.route ? -1 : 1));
}

const read = (pattern: string, handle: AdminRoute['handle']): AdminRoute => ({
  method: 'get',
  pattern,
  params: 0,
  session: true,
  guard: 'none',
  handle,
});

export function readRoutes(rt: AdminRuntime): AdminRoute[] {
  const { state, reloads } = rt.deps;
  return [
    read('/admin/api/data', () => ({ value: dataPage(rt) })),
    read('/admin/api/reload', () => ({
      value: { serving: state.dataset?.version ?? null, ...reloadSection(reloads) },
    })),
    read('/admin/api/keys', async ({ nowMs }) => ({ value: await keysPage(rt, nowMs) })),
    read('/admin/api/usage', async ({ nowMs }) => ({ value: await usagePage(rt, nowMs) })),
    read('/admin/api/health', ({ nowMs }) => ({ value: healthPage(rt, nowMs) })),
  ];
}

/** The data page: the version served, its manifest, each market's symbols, rows and dates, macro, reloads. */
function dataPage(rt: AdminRuntime) {
  const { state, reloads } = rt.deps;
  const ds = state.dataset;
  const markets =
    ds === null
      ? []
      : marketsOverview(ds).map((m) => ({
          market: m.market,
          symbols: m.symbols,
          rows: m.rows,
          start_date: m.startDate === null ? null : dateText(m.startDate),
          end_date: m.endDate === null ? null : dateText(m.endDate),
        }));
  const macro = ds === null ? null : macroOverview(ds.macro);
  return {
    version: ds?.version ?? null,
    manifest: ds?.manifest ?? null,
    macro: ds?.hasMacro ?? false,
    /** Distinct macro series keys over every indicator, and the indicators with rows (0 without macro data). */
    macro_series: macro?.series ?? 0,
    macro_indicators: macro?.indicators ?? 0,
    markets,
    totals: {
      symbols: markets.reduce((n, m) => n + m.symbols, 0),
      rows: markets.reduce((n, m) => n + m.rows, 0),
    },
    reload: reloadSection(reloads),
  };
}

/** The keys page: every key with its contact, last use and HISTORY_DAYS of counts; the plans in force. */
async function keysPage(rt: AdminRuntime, nowMs: number) {
  const { store, operator, guard, sync, plans } = rt.deps;
  await sync.flush(); // the last second's requests (every thread's) reach the store first
  const contacts = operator.allContacts();
  const days = daysEndingWith(guard.dayLabel(nowMs), HISTORY_DAYS);
  const counts = store.usage.readDays(days[0], days[days.length - 1]);
  const lastUsed = store.usage.readLastUsed();
  const keys = store.keys.list().map((k) => {
    const ofDays = days.map((d) => counts.get(d)?.get(k.id));
    const used = lastUsed.get(k.id);
    return {
      id: k.id,
      plan: k.plan,
      org: k.org,
      created: k.created,
      disabled: k.disabled,
      contact: contacts.get(k.id) ?? null,
      last_used: used === undefined ? null : new Date(used).toISOString(),
      requests_by_day: ofDays.map((u) => u?.requests ?? 0),
      rows_by_day: ofDays.map((u) => u?.used ?? 0),
      /** WebSocket connections of /api/v1/stream the key holds open now, on every serving thread of this instance. */
      streams: guard.streamConnections(k.id),
    };
  });
  /** The plans in force as the keys page lists them (the choices of a key's plan). */
  const planViews = plans.list.map((p) => ({
    name: p.name,
    rpm: p.rpm,
    daily_quota: p.dailyQuota,
    batch: p.batch,
    rows_per_call: p.rowsPerCall,
    export_rows: p.exportRows,
    connections: p.connections,
    subscriptions: p.subscriptions,
  }));
  return { mail_configured: rt.deps.mailer !== null, plans: planViews, days, keys };
}

/** The usage page: today's rows, requests and 429s per key, rows exported and the export allowance left, requests a minute, requests by route. */
async function usagePage(rt: AdminRuntime, nowMs: number) {
  const { store, meter, guard, sync, plans } = rt.deps;
  const routes = rt.deps.routes ?? null;
  await sync.flush(); // the guard's counts of the last second reach the store first
  const day = guard.dayLabel(nowMs);
  const counts = store.usage.readDay(day);
  const keys = store.keys.list().map((k) => {
    const plan = plans.get(k.plan); // a plan not in force: the key is refused, no quota to show
    const quota = plan?.dailyQuota ?? null;
    const exportQuota = plan === undefined ? 0 : plan.exportRows;
    const u = counts.get(k.id) ?? { used: 0, requests: 0 };
    const rateLimited = u.rateLimited ?? 0;
    const quotaExhausted = u.quotaExhausted ?? 0;
    const exported = u.exported ?? 0;
    return {
      id: k.id,
      plan: k.plan,
      org: k.org,
      disabled: k.disabled,
      rows: u.used,
      requests: u.requests,
      refused_429: rateLimited + quotaExhausted,
      rate_limited: rateLimited,
      quota_exhausted: quotaExhausted,
      daily_quota: quota,
      remaining: quota === null ? null : Math.max(0, quota - u.used),
      exported,
      export_quota: exportQuota,
      export_remaining: exportQuota === null ? null : Math.max(0, exportQuota - exported),
    };
  });
  return {
    day,
    keys,
    per_minute: meter.perMinute(nowMs),
    started: new Date(meter.startedMs).toISOString(),
    by_route: routes === null ? null : byRoute(routes()),
  };
}

/** The health page: the meter's summary, status, the reload running, memory, process. */
function healthPage(rt: AdminRuntime, nowMs: number) {
  const { state, reloads, meter } = rt.deps;
  const mem = process.memoryUsage();
  return {
    ...meter.summary(nowMs),
    status: state.draining ? 'draining' : state.dataset === null ? 'not_ready' : 'ok',
    data_version: state.dataset?.version ?? null,
    reload: runningView(reloads),
    memory_mb: {
      rss: Math.round(mem.rss / 1048576),
      heap_used: Math.round(mem.heapUsed / 1048576),
      external: Math.round(mem.external / 1048576),
    },
    node: process.version,
    pid: process.pid,
    sessions: rt.sessions.size,
  };
}
