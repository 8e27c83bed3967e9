// What a dashboard API route is: method, pattern, what it requires, and its handler.

import type { HeaderList } from '../respond.js';
import type { AdminRequest } from './exchange.js';
import type { Session } from './sessions.js';

/** What a handler gets: the copied request, its live session, the parsed body and the time. */
export interface AdminContext {
  req: AdminRequest;
  /** The request's session (null only on routes with `session: false`). */
  session: Session | null;
  body: Record<string, unknown>;
  nowMs: number;
}

/** A JSON answer and any extra headers (Set-Cookie). */
export interface AdminAnswer {
  value: unknown;
  headers?: HeaderList;
}

export interface AdminRoute {
  method: 'get' | 'post';
  /** uWS pattern under /admin/api. */
  pattern: string;
  params: number;
  /** A session is required (401 unauthorized without one). */
  session: boolean;
  /**
   * `'csrf'`: a write: the Origin check and the session's X-CSRF-Token (403 csrf_failed);
   * `'origin'`: the Origin check only (sign-in, before a session exists); `'none'`: a read.
   */
  guard: 'csrf' | 'origin' | 'none';
  handle(ctx: AdminContext): AdminAnswer | Promise<AdminAnswer>;
}
