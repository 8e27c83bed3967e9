// The dashboard's writes: create, disable, enable, rotate a key, change its plan, set its contact, mail it, reload the snapshot.

import { Problem } from '../problem.js';
import type { AdminRoute } from './admin-route.js';
import { keyDetailsMessage } from './key-mail.js';
import type { KeyView } from './ports.js';
import type { ReloadEntry } from './reload-log.js';
import type { AdminRuntime } from './runtime.js';
import { contactOf, keyIdOf, orgOf, planOf } from './validate.js';

const ACTIONS = ['disable', 'enable', 'rotate', 'plan', 'contact', 'mail'] as const;
type Action = (typeof ACTIONS)[number];

const recordView = (k: KeyView, contact: string | null) => ({
  id: k.id,
  plan: k.plan,
  org: k.org,
  created: k.created,
  disabled: k.disabled,
  contact,
});

/**
 * A write: a session and its CSRF token required. A change the state folder refused (a full disk:
 * the store's error says `stateUnwritable`) is a 507 state_unwritable naming what was not written.
 */
const write = (pattern: string, params: number, handle: AdminRoute['handle']): AdminRoute => ({
  method: 'post',
  pattern,
  params,
  session: true,
  guard: 'csrf',
  handle: async (ctx) => {
    try {
      return await handle(ctx);
    } catch (error) {
      if ((error as { stateUnwritable?: unknown } | null)?.stateUnwritable === true)
        throw new Problem('state_unwritable', `${(error as Error).message}; nothing was changed`);
      throw error;
    }
  },
});

export function writeRoutes(rt: AdminRuntime): AdminRoute[] {
  const { store, operator, sync, plans } = rt.deps;
  const action = keyActions(rt);
  return [
    write('/admin/api/keys', 0, async ({ body }) => {
      const plan = planOf(body.plan, plans);
      const org = orgOf(body.org);
      const contact = contactOf(body.contact);
      const issued = await store.keys.create(plan, org);
      if (contact !== null) await operator.setContact(issued.record.id, contact);
      sync.reloadKeys(); // the guard sees a key change at once, not at the sync's next tick
      rt.log(`dashboard: created key ${issued.record.id} (plan ${plan})`);
      return { value: { key: issued.key, record: recordView(issued.record, contact) } };
    }),
    write('/admin/api/keys/:id/:action', 2, async ({ req, body }) => {
      const id = keyIdOf(req.params[0]);
      const name = req.params[1] as Action;
      if (!ACTIONS.includes(name)) throw new Problem('not_found', `no key action '${req.params[1]}'`);
      return { value: await action[name](id, body) };
    }),
    write('/admin/api/reload', 0, async () => ({ value: reloadAnswer(rt, await rt.deps.reloads.run()) })), // exactly what SIGHUP runs
  ];
}

/** What each key action does, by its name in `/admin/api/keys/:id/:action`. */
function keyActions(rt: AdminRuntime): Record<Action, (id: string, body: Record<string, unknown>) => Promise<unknown>> {
  const { store, operator, sync, guard, plans } = rt.deps;
  /** The guard sees a key change at once, not at the sync's next tick. */
  const keysChanged = (): void => void sync.reloadKeys();
  return {
    async disable(id) {
      const r = await store.keys.setDisabled(id, true);
      if (r === undefined) throw new Problem('not_found', `no key ${id}`);
      keysChanged();
      rt.log(`dashboard: disabled key ${id}`);
      return { record: recordView(r, operator.contact(id)) };
    },
    async enable(id) {
      const r = await store.keys.setDisabled(id, false);
      if (r === undefined) throw new Problem('not_found', `no key ${id}`);
      keysChanged();
      rt.log(`dashboard: enabled key ${id}`);
      return { record: recordView(r, operator.contact(id)) };
    },
    async rotate(id) {
      const issued = await store.keys.rotate(id);
      if (issued === undefined) throw new Problem('not_found', `no key ${id}`);
      keysChanged();
      rt.log(`dashboard: rotated key ${id}`);
      return { key: issued.key, record: recordView(issued.record, operator.contact(id)) };
    },
    /** A new plan for the key: its limits change at once; today's rows and requests stay (usage is kept by key id). */
    async plan(id, body) {
      const plan = planOf(body.plan, plans);
      const before = store.keys.get(id);
      const r = before === undefined ? undefined : await store.keys.setPlan(id, plan);
      if (r === undefined) throw new Problem('not_found', `no key ${id}`);
      keysChanged();
      rt.log(`dashboard: key ${id} moved from plan ${before!.plan} to ${plan}`);
      await sync.flush(); // the guard's counts of the last second reach the store first
      const u = store.usage.readDay(guard.dayLabel(rt.now())).get(id) ?? { used: 0, requests: 0 };
      return {
        record: recordView(r, operator.contact(id)),
        previous_plan: before!.plan,
        usage_today: { rows: u.used, requests: u.requests },
      };
    },
    async contact(id, body) {
      const contact = contactOf(body.contact);
      const r = store.keys.get(id);
      if (r === undefined) throw new Problem('not_found', `no key ${id}`);
      await operator.setContact(id, contact);
      return { record: recordView(r, contact) };
    },
    async mail(id) {
      const mailer = rt.deps.mailer;
      if (mailer === null) throw new Problem('mail_not_configured', 'no mail transport is configured (set SMTP_URL)');
      const r = store.keys.get(id);
      if (r === undefined) throw new Problem('not_found', `no key ${id}`);
      const to = operator.contact(id);
      if (to === null)
        throw new Problem('invalid_parameter', `key ${id} has no contact e-mail; set one first`, 'contact');
      const plan = plans.get(r.plan);
      if (plan === undefined)
        throw new Problem(
          'invalid_parameter',
          `key ${id} has plan '${r.plan}', which is not in force; give it another plan first`,
          'plan',
        );
      try {
        await mailer.send(keyDetailsMessage(r, plan, to));
      } catch (error) {
        rt.log(`dashboard: mail for key ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        throw new Problem(
          'internal_error',
          'the mail server could not be reached or refused the message; see the server log',
        );
      }
      rt.log(`dashboard: mailed details of key ${id} to its contact`);
      return { sent_to: to, id };
    },
  };
}

/** A reload pass's answer: its outcome, the version served now, and the last rejected pass. */
function reloadAnswer(rt: AdminRuntime, entry: ReloadEntry) {
  const { reloads, state } = rt.deps;
  const o = entry.outcome;
  const rejected = reloads.lastRejected;
  return {
    kind: o.kind,
    seconds: Math.round(o.seconds * 1000) / 1000,
    version: 'version' in o ? o.version : null,
    reason: 'reason' in o ? o.reason : null,
    stages: (o.stages ?? []).map((x) => ({ stage: x.stage, seconds: Math.round(x.seconds * 1000) / 1000 })),
    serving: state.dataset?.version ?? null,
    started: entry.started,
    finished: entry.finished,
    last_rejected:
      rejected?.outcome.kind === undefined
        ? null
        : { finished: rejected.finished, reason: 'reason' in rejected.outcome ? rejected.outcome.reason : null },
  };
}
