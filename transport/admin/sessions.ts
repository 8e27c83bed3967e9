// Operator sessions in memory: random id (the cookie), a synchronizer CSRF token, idle expiry.

import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface Session {
  readonly id: string;
  /** The per-session CSRF token every write must send back in X-CSRF-Token. */
  readonly csrf: string;
  readonly created: number;
  lastSeen: number;
  /** The password's stamp at sign-in: a new password ends the session. */
  readonly stamp: string | null;
}

/** Default idle expiry: 30 minutes without a request. */
export const IDLE_MS = 30 * 60_000;
/** A session ends after 12 hours whatever its activity. */
export const MAX_AGE_MS = 12 * 3_600_000;
/** Most sessions kept at once; the least recently used goes first beyond it. */
const MAX_SESSIONS = 64;

const token = (): string => randomBytes(32).toString('base64url');

/** Live sessions; ends them on idle, age or a password change. Lost on restart (operators sign in again). */
export class SessionStore {
  private readonly byId = new Map<string, Session>();

  constructor(private readonly idleMs: number = IDLE_MS) {}

  /** A new session at `nowMs`. */
  create(nowMs: number, stamp: string | null): Session {
    this.prune(nowMs);
    if (this.byId.size >= MAX_SESSIONS) {
      let oldest: Session | null = null;
      for (const s of this.byId.values()) if (oldest === null || s.lastSeen < oldest.lastSeen) oldest = s;
      this.byId.delete(oldest!.id);
    }
    const session: Session = { id: token(), csrf: token(), created: nowMs, lastSeen: nowMs, stamp };
    this.byId.set(session.id, session);
    return session;
  }

  /** The live session of cookie value `id` (its idle clock restarts), or null. */
  touch(id: string | null, nowMs: number, stamp: string | null): Session | null {
    if (id === null) return null;
    const s = this.byId.get(id);
    if (s === undefined) return null;
    if (this.expired(s, nowMs) || s.stamp !== stamp) {
      this.byId.delete(id);
      return null;
    }
    s.lastSeen = nowMs;
    return s;
  }

  /** Ends a session (sign-out). */
  end(id: string): void {
    this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }

  private expired(s: Session, nowMs: number): boolean {
    return nowMs - s.lastSeen > this.idleMs || nowMs - s.created > MAX_AGE_MS;
  }

  private prune(nowMs: number): void {
    for (const s of this.byId.values()) if (this.expired(s, nowMs)) this.byId.delete(s.id);
  }
}

/** Constant-time string equality (lengths may differ; that much leaks, nothing else). */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
