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

/** A field name outside RFC 9110's token characters. */
const NOT_TOKEN = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** A control character other than tab in a field value (RFC 9110 §5.5; DEL included). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

const counting = { hosts: 0, lengths: 0, badName: '', badValue: '' };
function count(name: string): void {
  if (name === 'host') counting.hosts++;
  else if (name === 'content-length') counting.lengths++;
}
function countStrictly(name: string, value: string): void {
  count(name);
  if (NOT_TOKEN.test(name)) counting.badName = name;
  else if (CONTROL.test(value)) counting.badValue = name;
}

/**
 * framingProblem for a handler that reads no other header in a pass of its own. `strict` also
 * refuses a field name that is not a token and a value holding a control character: the paths
 * the main thread answers for every serving thread take it, as a forward could not carry such a
 * field (node:http refuses to send it), so every thread answers such a request the same way.
 */
export function requestFramingProblem(req: HttpRequest, strict = false): Problem | null {
  counting.hosts = counting.lengths = 0;
  counting.badName = counting.badValue = '';
  req.forEach(strict ? countStrictly : count);
  if (counting.badName !== '')
    return new Problem('malformed_request', 'a header field name holds a character outside RFC 9110 tokens');
  if (counting.badValue !== '')
    return new Problem('malformed_request', `the ${counting.badValue} field holds a control character`);
  return framingProblem(counting);
}
