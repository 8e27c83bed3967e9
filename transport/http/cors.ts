// CORS for the API (never the dashboard): allowed origins, exposed headers, preflight answers.

import type { HeaderList } from '../respond.js';

/** Headers a browser script may read from an API answer. */
const EXPOSED =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Quota-Limit, X-Quota-Remaining, X-Data-Version, ETag, Retry-After, X-Request-Id, Link';
/** Request headers a preflight allows. */
const ALLOWED = 'X-API-Key, Authorization, If-None-Match, Accept, X-Request-Id';
/** Seconds a browser may remember a preflight. */
const MAX_AGE = '600';

/**
 * CORS_ORIGINS: `*` (the default: the API authenticates by header, never by cookie) or a
 * comma list of exact origins (`https://desk.example`).
 */
export class Cors {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(setting = '*') {
    const list = setting
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o.length > 0);
    this.any = list.includes('*');
    this.origins = new Set(list);
  }

  /** `Vary` of a negotiated answer: with a list of origins the answer also varies by Origin. */
  get vary(): string {
    return this.any ? 'Accept, Accept-Encoding' : 'Accept, Accept-Encoding, Origin';
  }

  /** `Vary` of an answer negotiated by format only (an export: never compressed). */
  get varyFormat(): string {
    return this.any ? 'Accept' : 'Accept, Origin';
  }

  /** Adds the headers of an answer to a request from `origin` (nothing when it sent none or is not allowed). */
  answer(origin: string, headers: HeaderList): void {
    if (this.allows(origin))
      headers.push('access-control-allow-origin', this.any ? '*' : origin, 'access-control-expose-headers', EXPOSED);
  }

  /** Adds `Vary: Origin` to an answer that carries no Vary of its own, when CORS_ORIGINS is a list (whether `Access-Control-Allow-Origin` is sent depends on Origin). */
  varyOrigin(headers: HeaderList): void {
    if (!this.any) headers.push('vary', 'Origin');
  }

  /** Adds the headers of a preflight's 204 (methods, headers, max age) when `origin` is allowed; `Vary: Origin` with a list, allowed or not. */
  preflight(origin: string, headers: HeaderList): void {
    this.varyOrigin(headers); // a refused preflight too: another origin's would be allowed
    if (!this.allows(origin)) return;
    headers.push(
      'access-control-allow-origin',
      this.any ? '*' : origin,
      'access-control-allow-methods',
      'GET, OPTIONS',
      'access-control-allow-headers',
      ALLOWED,
      'access-control-max-age',
      MAX_AGE,
    );
  }

  private allows(origin: string): boolean {
    return origin !== '' && (this.any || this.origins.has(origin));
  }
}
