// The write checks: the Origin must be the server's own, and X-CSRF-Token the session's synchronizer token.

import { Problem } from '../problem.js';
import type { AdminRequest } from './exchange.js';
import { type Session, sameToken } from './sessions.js';

/** The origin this request should come from: the configured one, else `http(s)://` + Host (by now an IP literal or localhost: host-check.ts). */
export function ownOrigin(req: AdminRequest, configured: string | null, tls: boolean): string | null {
  if (configured !== null) return configured;
  if (req.host === '' || /[\s/\\@]/.test(req.host)) return null;
  return `${tls ? 'https' : 'http'}://${req.host.toLowerCase()}`;
}

/** 403 csrf_failed unless the request's Origin is exactly the server's own (sign-in included). */
export function checkOrigin(req: AdminRequest, configured: string | null, tls: boolean): void {
  const own = ownOrigin(req, configured, tls);
  if (req.origin === null) throw new Problem('csrf_failed', 'a dashboard write must carry an Origin header');
  if (own === null || req.origin.toLowerCase() !== own.toLowerCase())
    throw new Problem('csrf_failed', 'the Origin is not this server');
}

/** 403 csrf_failed unless X-CSRF-Token is this session's token. */
export function checkToken(req: AdminRequest, session: Session): void {
  if (req.csrf === null) throw new Problem('csrf_failed', 'X-CSRF-Token is missing');
  if (!sameToken(req.csrf, session.csrf)) throw new Problem('csrf_failed', 'X-CSRF-Token does not match this session');
}
