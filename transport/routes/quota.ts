// GET /quota: the calling key's plan and today's usage; charges no rows.

import type { Guard } from '../guard/guard.js';
import { route, type Route } from '../route.js';
import { quotaShape } from '../shapes/plain.js';

/** The quota route reads the guard that authenticated the request. */
export function quotaRouteOf(guard: Guard): Route {
  return route({
    pattern: '/api/v1/quota',
    operationId: 'getQuota',
    summary: "The calling key's plan and today's usage",
    description:
      "`reset_at` is the next reset (00:00 in QUOTA_TZ). Internal keys answer `daily_quota` and `remaining` as null. `export_quota`, `export_used` and `export_remaining` are the plan's daily export allowance (`/{market}/export`), counted apart from the row quota: null when unlimited (internal keys), `export_quota` 0 when exports are not in the plan. One record, no rows: CSV is not offered (406).",
    tag: 'Account',
    query: {},
    shape: quotaShape,
    example: {
      plan: 'pro',
      org_name: 'Desk A',
      daily_quota: 200000,
      used: 1200,
      remaining: 198800,
      requests_today: 31,
      reset_at: '2025-03-16T00:00:00.000Z',
      export_quota: 20000000,
      export_used: 7199884,
      export_remaining: 12800116,
    },
    problems: [],
    auth: true,
    charges: false,
    cacheable: false, // usage changes with every request
    handle({ key, nowMs }) {
      return { shape: quotaShape, result: guard.quota(key!, nowMs), rows: 0 };
    },
  });
}
