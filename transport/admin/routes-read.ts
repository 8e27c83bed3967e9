// The dashboard's read pages as JSON: data, keys, usage today with requests a minute, health.

import { dateText } from '../../engine/calendar/date-text.js';
import { marketsOverview } from '../../engine/queries/markets-overview.js';
import { PLANS } from '../../engine/plans.js';
import type { AdminRoute } from './admin-route.js';
import type { ReloadEntry } from './reload-log.js';
import type { AdminRuntime } from './runtime.js';

const reloadView = (e: ReloadEntry | null) =>
  e === null
    ? null
    : {
        started: e.started,
        finished: e.finished,
        kind: e.outcome.kind,
        seconds: Math.round(e.outcome.seconds * 1000) / 1000,
        version: 'version' in e.outcome ? e.outcome.version : null,
        reason: 'reason' in e.outcome ? e.outcome.reason : null,
      };

const read = (pattern: string, handle: AdminRoute['handle']): AdminRoute => ({ method: 'get', pattern, params: 0, session: true, guard: 'none', handle });

export function readRoutes(rt: AdminRuntime): AdminRoute[] {
  const { state, store, operator, reloads, meter, guard, sync } = rt.deps;
  return [
    read('/admin/api/data', () => {
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
      return {
        value: {
          version: ds?.version ?? null,
          manifest: ds?.manifest ?? null,
          macro: ds?.hasMacro ?? false,
          markets,
          totals: { symbols: markets.reduce((n, m) => n + m.symbols, 0), rows: markets.reduce((n, m) => n + m.rows, 0) },
          reload: { last: reloadView(reloads.last), last_rejected: reloadView(reloads.lastRejected) },
        },
      };
    }),
    read('/admin/api/keys', () => {
      const contacts = operator.allContacts();
      const keys = store.keys.list().map((k) => ({ id: k.id, plan: k.plan, org: k.org, created: k.created, disabled: k.disabled, contact: contacts.get(k.id) ?? null }));
      return { value: { mail_configured: rt.deps.mailer !== null, keys } };
    }),
    read('/admin/api/usage', async ({ nowMs }) => {
      await sync.flush(); // the guard's counts of the last second reach the store first
      const day = guard.dayLabel(nowMs);
      const counts = store.usage.readDay(day);
      const keys = store.keys.list().map((k) => {
        const quota = PLANS[k.plan].dailyQuota;
        const u = counts.get(k.id) ?? { used: 0, requests: 0 };
        return { id: k.id, plan: k.plan, org: k.org, disabled: k.disabled, rows: u.used, requests: u.requests, daily_quota: quota, remaining: quota === null ? null : Math.max(0, quota - u.used) };
      });
      return { value: { day, keys, per_minute: meter.perMinute(nowMs) } };
    }),
    read('/admin/api/health', ({ nowMs }) => {
      const mem = process.memoryUsage();
      return {
        value: {
          ...meter.summary(nowMs),
          status: state.draining ? 'draining' : state.dataset === null ? 'not_ready' : 'ok',
          data_version: state.dataset?.version ?? null,
          memory_mb: { rss: Math.round(mem.rss / 1048576), heap_used: Math.round(mem.heapUsed / 1048576), external: Math.round(mem.external / 1048576) },
          node: process.version,
          pid: process.pid,
          sessions: rt.sessions.size,
        },
      };
    }),
  ];
}
