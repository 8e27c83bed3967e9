// GET /quota: the calling key's plan and today's usage; charges no rows.

import type { Route } from '../route.js';
import type { Guard } from '../guard/guard.js';

/** The quota route reads the guard that authenticated the request. */
export function quotaRouteOf(guard: Guard): Route {
  return {
    pattern: '/api/v1/quota',
    paramNames: [],
    auth: true,
    charges: false,
    cacheable: false, // usage changes with every request
    handle({ key, nowMs }) {
      return { shape: 'quota', value: guard.quota(key!, nowMs), rows: 0 };
    },
  };
}
