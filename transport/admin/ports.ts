// What the dashboard needs from the rest of the service, as shapes: main.ts hands in the real objects.

import type { PlanName, Plans } from '../../engine/plans.js';
import type { ServerState } from '../server.js';
import type { MeterView } from './meter.js';
import type { ReloadLog } from './reload-log.js';
import type { KeyMailer } from './key-mail.js';

/** A stored key as the dashboard shows it (loaders/state's KeyRecord has this shape). */
export interface KeyView {
  readonly id: string;
  readonly plan: PlanName;
  readonly org: string;
  readonly created: string;
  readonly disabled: boolean;
}

/** The key table (loaders/state's KeyStore). */
export interface KeyPort {
  list(): KeyView[];
  get(id: string): KeyView | undefined;
  create(plan: PlanName, org: string): Promise<{ record: KeyView; key: string }>;
  setDisabled(id: string, disabled: boolean): Promise<KeyView | undefined>;
  rotate(id: string): Promise<{ record: KeyView; key: string } | undefined>;
  /** Moves a key to another plan; usage is stored by key id, so today's counts carry over. */
  setPlan(id: string, plan: PlanName): Promise<KeyView | undefined>;
}

/** One key's stored counts of a day: rows, requests, 429 refusals and rows exported (absent: none). */
export interface DayCounts {
  used: number;
  requests: number;
  rateLimited?: number;
  quotaExhausted?: number;
  exported?: number;
}

/** Stored usage counts (loaders/state's UsageStore). */
export interface UsagePort {
  readDay(day: string): Map<string, DayCounts>;
  /** Each day from `first` to `last` (`YYYY-MM-DD`, both included) → key id → counts; days without counts absent. */
  readDays(first: string, last: string): Map<string, Map<string, DayCounts>>;
  /** Key id → epoch ms of its last authenticated request; keys never used absent. */
  readLastUsed(): Map<string, number>;
}

/** Answers counted since start by route, status and plan (transport/metrics' RequestMetrics `cells()` has this shape). */
export interface RouteCount {
  route: string;
  status: number;
  /** A plan name, or `none` for answers no key was checked for. */
  plan: string;
  requests: number;
  rows: number;
}

/** Operator password and key contacts (loaders/state's OperatorStore). */
export interface OperatorPort {
  verifyPassword(password: string): Promise<boolean>;
  passwordStamp(): string | null;
  contact(id: string): string | null;
  allContacts(): Map<string, string>;
  setContact(id: string, email: string | null): Promise<void>;
}

/** The running guard's day, and its live WebSocket connections per key over every serving thread (transport/guard's Guard). */
export interface DayPort {
  dayLabel(nowMs: number): string;
  streamConnections(id: string): number;
}

/** The state sync (loaders/state's StateSync): make the guard see a key change now, write counts now. */
export interface SyncPort {
  reloadKeys(): boolean;
  flush(): Promise<void>;
}

/** Everything the dashboard is built from. */
export interface AdminDeps {
  store: { keys: KeyPort; usage: UsagePort };
  operator: OperatorPort;
  guard: DayPort;
  /** The plans in force (the guard's): the choices of a key's plan, and the figures shown. */
  plans: Plans;
  sync: SyncPort;
  state: ServerState;
  reloads: ReloadLog;
  meter: MeterView;
  /**
   * The server's request counts by route (`() => server.requests.cells()`); the usage page's
   * per-route table. Absent or null: the page says the breakdown is not wired.
   */
  routes?: (() => RouteCount[]) | null;
  /** null: no SMTP_URL, mail actions answer 503 mail_not_configured. */
  mailer: KeyMailer | null;
  /**
   * The origin browsers reach the dashboard at (ADMIN_ORIGIN, e.g. `https://ops.example`): only
   * its Host is served. null: only an IP-literal or `localhost` Host is served, and the expected
   * Origin is `http://` + that Host. An `https:` origin makes the cookie `Secure`.
   */
  origin?: string | null;
  /** Served over TLS by this process itself: the session cookie is `Secure`. */
  tls?: boolean;
  /** Idle time after which a session ends (default 30 minutes). */
  idleMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}
