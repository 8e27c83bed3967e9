// The client's address of a request another serving thread forwarded to this one (the dashboard,
// /metrics): carried in a header that counts only with the token this process's threads share.

import { timingSafeEqual } from 'node:crypto';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

export const FORWARD_TOKEN_HEADER = 'x-mdq-thread-token';
export const FORWARDED_FOR_HEADER = 'x-mdq-client-address';

let token: Buffer | null = null;

/** Trusts forwarded addresses that come with `secret` (the main thread of a threaded server). */
export function acceptForwarded(secret: string): void {
  token = Buffer.from(secret);
}

/** True when `req` came from a serving thread of this process. */
export function isForwarded(req: HttpRequest): boolean {
  if (token === null) return false;
  const given = Buffer.from(req.getHeader(FORWARD_TOKEN_HEADER));
  return given.length === token.length && timingSafeEqual(given, token);
}

/** The client's address: the connection's own, or the forwarding thread's client's. */
export function clientAddress(res: HttpResponse, req: HttpRequest): string {
  const forwarded = isForwarded(req) ? req.getHeader(FORWARDED_FOR_HEADER) : '';
  return forwarded !== '' ? forwarded : Buffer.from(res.getRemoteAddressAsText()).toString();
}
