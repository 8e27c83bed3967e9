// Requests whose framing two parsers could read differently: answered 400 and the connection closed.
//
// uWS keeps the first of two Host or two Content-Length fields; a proxy in front that kept the
// other would disagree on the target or on where the next request starts (request smuggling).
// RFC 9112 §3.2 and §6.3 make both a 400. The answer asks uWS to close the connection, but a
// request already read behind it in the same packet is still handed over and answered: only
// nginx in front (deploy/nginx.conf) refuses such a connection before anything reaches us.

import type { HttpRequest } from 'uWebSockets.js';
import { Problem } from '../problem.js';

/** How often the fields that frame a request appeared; the server's one-pass header read fills it. */
export interface FramingCounts {
  hosts: number;
  lengths: number;
}

/** The 400 for `counts`, or null when the request is framed unambiguously. */
export function framingProblem(counts: FramingCounts): Problem | null {
  if (counts.hosts > 1) return new Problem('malformed_request', 'the request has more than one Host field');
  if (counts.lengths > 1) return new Problem('malformed_request', 'the request has more than one Content-Length field');
  return null;
}

const counting: FramingCounts = { hosts: 0, lengths: 0 };
function count(name: string): void {
  if (name === 'host') counting.hosts++;
  else if (name === 'content-length') counting.lengths++;
}

/** framingProblem for a handler that reads no other header in a pass of its own. */
export function requestFramingProblem(req: HttpRequest): Problem | null {
  counting.hosts = counting.lengths = 0;
  req.forEach(count);
  return framingProblem(counting);
}
