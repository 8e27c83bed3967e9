// The dashboard's live parts built from its dependencies: sessions, sign-in backoff, clock, cookie settings.

import type { Problem } from '../problem.js';
import type { AdminDeps } from './ports.js';
import { COOKIE } from './exchange.js';
import { hostCheck } from './host-check.js';
import { IDLE_MS, SessionStore } from './sessions.js';
import { SignInBackoff } from './sign-in-backoff.js';

export interface AdminRuntime {
  deps: AdminDeps;
  sessions: SessionStore;
  backoff: SignInBackoff;
  now: () => number;
  log: (line: string) => void;
  /** The configured origin (ADMIN_ORIGIN) or null: derived from Host (an IP literal or localhost, host-check.ts). */
  origin: string | null;
  /** A request's Host ('' when absent) → null, or the 403 to answer (host-check.ts). */
  checkHost: (host: string) => Problem | null;
  /** Requests reach this process over TLS (the expected origin is https). */
  tls: boolean;
  idleMs: number;
  /** The Set-Cookie value of session `id` (empty id and Max-Age=0: sign-out). */
  cookie(id: string | null): string;
}

export function adminRuntime(deps: AdminDeps): AdminRuntime {
  const origin = deps.origin ? deps.origin.replace(/\/+$/, '') : null;
  const tls = deps.tls ?? false;
  const secure = tls || origin?.startsWith('https:');
  const idleMs = deps.idleMs ?? IDLE_MS;
  return {
    deps,
    sessions: new SessionStore(idleMs),
    backoff: new SignInBackoff(),
    now: deps.now ?? Date.now,
    log: deps.log ?? ((line) => console.error(line)),
    origin,
    checkHost: hostCheck(origin),
    tls,
    idleMs,
    cookie: (id) =>
      `${COOKIE}=${id ?? ''}; HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}${id === null ? '; Max-Age=0' : ''}`,
  };
}
