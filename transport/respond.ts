// The one way a response leaves: cork → status → headers → end (the socket discipline of style.md).

import type { HttpResponse } from 'uWebSockets.js';
import { Problem, STATUS_LINES } from './problem.js';
import { assemble, type BodyPart } from './serialise/assemble.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json';

/** Response headers as a flat list: name, value, name, value, … (no object per response). */
export type HeaderList = string[];

/**
 * Writes a whole response. Corking packs status, headers and body into one send, and is
 * required when this runs outside the handler's synchronous part. `close` answers with
 * `Connection: close` (used while draining).
 */
export function send(res: HttpResponse, status: number, contentType: string, body: string | Buffer | BodyPart[], headers: HeaderList, close = false, headOnly = false): void {
  // A single piece is sent as it is; several are joined in a reused buffer that end() copies.
  if (Array.isArray(body)) body = body.length === 1 && typeof body[0] !== 'string' ? body[0] : assemble(body);
  res.cork(() => {
    res.writeStatus(STATUS_LINES[status] ?? `${status} Status`);
    res.writeHeader('content-type', contentType);
    for (let i = 0; i < headers.length; i += 2) res.writeHeader(headers[i], headers[i + 1]);
    // A HEAD answer: headers only. (This uWS build aborts when endWithoutBody is given a length.)
    if (headOnly) res.endWithoutBody();
    else res.end(body as string | Buffer, close);
  });
}

/** Writes a problem+json response with its own extra headers (Retry-After, Allow) added; `instance` is the request id. */
export function sendProblem(res: HttpResponse, problem: Problem, headers: HeaderList, close = false, headOnly = false, instance?: string): void {
  for (const [name, value] of Object.entries(problem.headers)) headers.push(name, value);
  send(res, problem.status, PROBLEM_TYPE, problem.body(instance), headers, close, headOnly);
}

/** Writes a response without a body or Content-Length (204, 304): status and headers only. */
export function sendEmpty(res: HttpResponse, status: number, headers: HeaderList, close = false): void {
  res.cork(() => {
    res.writeStatus(STATUS_LINES[status] ?? `${status} Status`);
    for (let i = 0; i < headers.length; i += 2) res.writeHeader(headers[i], headers[i + 1]);
    if (close) res.writeHeader('connection', 'close');
    res.endWithoutBody();
  });
}
