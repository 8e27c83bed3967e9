// Sign-in (slowed after wrong passwords), sign-out, and the session's CSRF token for the page.

import { Problem } from '../problem.js';
import type { AdminRoute } from './admin-route.js';
import type { AdminRuntime } from './runtime.js';

export function sessionRoutes(rt: AdminRuntime): AdminRoute[] {
  const { operator } = rt.deps;
  const sessionInfo = (csrf: string) => ({ signed_in: true, csrf, idle_timeout_s: Math.round(rt.idleMs / 1000) });
  return [
    {
      method: 'post',
      pattern: '/admin/api/sign-in',
      params: 0,
      session: false,
      guard: 'origin', // no session yet; a foreign page must not sign the operator in (login CSRF)
      async handle({ req, body }) {
        const password = body.password;
        if (typeof password !== 'string' || password === '' || password.length > 1024)
          throw new Problem('invalid_parameter', 'password: expected a non-empty string', 'password');
        const wait = rt.backoff.admit(req.ip, rt.now());
        if (wait > 0)
          throw new Problem('rate_limited', 'too many wrong passwords: wait before trying again', {
            retryAfter: wait / 1000,
          });
        let ok: boolean;
        try {
          ok = await operator.verifyPassword(password);
        } catch (error) {
          rt.backoff.abandon(req.ip, rt.now());
          throw error;
        }
        // Recorded whether or not the client is still there: dropping the connection does not dodge the backoff.
        const at = rt.now();
        if (!ok) {
          rt.backoff.failed(req.ip, at);
          rt.log(`dashboard: wrong password from ${req.ip}`);
          throw new Problem('unauthorized', 'wrong password');
        }
        rt.backoff.succeeded(req.ip, at);
        const session = rt.sessions.create(at, operator.passwordStamp());
        rt.log(`dashboard: operator signed in from ${req.ip}`);
        return { value: sessionInfo(session.csrf), headers: ['set-cookie', rt.cookie(session.id)] };
      },
    },
    {
      method: 'post',
      pattern: '/admin/api/sign-out',
      params: 0,
      session: true,
      guard: 'csrf',
      handle({ session }) {
        rt.sessions.end(session!.id);
        return { value: { signed_in: false }, headers: ['set-cookie', rt.cookie(null)] };
      },
    },
    {
      method: 'get',
      pattern: '/admin/api/session',
      params: 0,
      session: true,
      guard: 'none',
      handle: ({ session }) => ({ value: sessionInfo(session!.csrf) }),
    },
  ];
}
