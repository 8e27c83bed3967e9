// Slows repeated wrong passwords: per-IP and global lockouts that double with each failure, and one check at a time.

/** Lockout after the n-th consecutive failure: 1 s, 2 s, 4 s … up to 60 s (per IP). */
const IP_BASE_MS = 1000;
const IP_CAP_MS = 60_000;
/** Across all addresses: free for 20 failures, then 1 s doubling up to 10 s (gentler: it locks the operator out too). */
const GLOBAL_FREE = 20;
const GLOBAL_CAP_MS = 10_000;
/** Failures are forgotten after this long without another. */
const FORGET_MS = 15 * 60_000;
/** scrypt needs 32 MiB a check: at most this many run at once. */
const MAX_CHECKING = 2;
/** Most addresses tracked; the stalest goes first beyond it. */
const MAX_TRACKED = 10_000;

interface Record {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
  checking: boolean;
}

const lockout = (failures: number, base: number, cap: number): number =>
  Math.min(cap, base * 2 ** Math.min(30, failures - 1));

/** Sign-in attempts: `admit` before checking a password, `failed`/`succeeded` after. */
export class SignInBackoff {
  private readonly byIp = new Map<string, Record>();
  private readonly global: Record = { failures: 0, lastFailure: 0, lockedUntil: 0, checking: false };
  private checking = 0;

  /** 0: go ahead (and call `failed` or `succeeded` after); otherwise milliseconds to wait. */
  admit(ip: string, nowMs: number): number {
    const r = this.record(ip, nowMs);
    const wait = Math.max(r.lockedUntil, this.global.lockedUntil) - nowMs;
    if (wait > 0) return wait;
    if (r.checking || this.checking >= MAX_CHECKING) return 1000; // parallel guesses wait for the one in progress
    r.checking = true;
    this.checking++;
    return 0;
  }

  failed(ip: string, nowMs: number): void {
    const r = this.done(ip, nowMs);
    r.failures++;
    r.lastFailure = nowMs;
    r.lockedUntil = nowMs + lockout(r.failures, IP_BASE_MS, IP_CAP_MS);
    const g = this.global;
    if (nowMs - g.lastFailure > FORGET_MS) g.failures = 0;
    g.failures++;
    g.lastFailure = nowMs;
    if (g.failures > GLOBAL_FREE) g.lockedUntil = nowMs + lockout(g.failures - GLOBAL_FREE, IP_BASE_MS, GLOBAL_CAP_MS);
  }

  succeeded(ip: string, nowMs: number): void {
    this.done(ip, nowMs);
    this.byIp.delete(ip);
    this.global.failures = 0;
    this.global.lockedUntil = 0;
  }

  /** Ends a check without a verdict (the client went away, or the check threw). */
  abandon(ip: string, nowMs: number): void {
    this.done(ip, nowMs);
  }

  private done(ip: string, nowMs: number): Record {
    const r = this.record(ip, nowMs);
    if (r.checking) {
      r.checking = false;
      this.checking--;
    }
    return r;
  }

  private record(ip: string, nowMs: number): Record {
    let r = this.byIp.get(ip);
    if (r !== undefined && !r.checking && nowMs - r.lastFailure > FORGET_MS) r.failures = 0;
    if (r === undefined) {
      if (this.byIp.size >= MAX_TRACKED) this.evict(nowMs);
      r = { failures: 0, lastFailure: nowMs, lockedUntil: 0, checking: false };
      this.byIp.set(ip, r);
    }
    return r;
  }

  private evict(nowMs: number): void {
    for (const [ip, r] of this.byIp) if (!r.checking && r.lockedUntil <= nowMs) this.byIp.delete(ip);
    if (this.byIp.size < MAX_TRACKED) return;
    for (const [ip, r] of this.byIp) {
      if (r.checking) continue; // its check is still running: keep the count right
      this.byIp.delete(ip); // insertion order: the oldest entry
      return;
    }
  }
}
