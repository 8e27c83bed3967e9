// The one way a response leaves: cork → status → headers → end (the socket discipline of style.md).

import type { HttpResponse } from 'uWebSockets.js';
import { type Problem, PROBLEM_TYPE, STATUS_LINES } from './problem.js';
import { assemble, type BodyPart } from './serialise/assemble.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Response headers as a flat list: name, value, name, value, … (no object per response). */
export type HeaderList = string[];

/**
 * Headers joined as the value of the first: `value` is `v1\r\nname2: v2\r\n…`, which uWS
 * writes as `name1: ` + value + CRLF. One native call and one encode per response instead of
 * one per header (a cached answer's ~2 µs of its ~17 µs, measured with wrk). Safe because no
 * value holds CR or LF: ours are literals and numbers, and uWS ends a request's line or
 * header at CR LF, so nothing echoed from a request (an id, a query) can carry one.
 */
export interface HeaderBlock {
  name: string;
  value: string | Buffer;
}

/** The headers of `list` from index `from` on as one block ('' value when there are none). */
export function headerBlock(list: HeaderList, from = 0): HeaderBlock | null {
  if (list.length <= from) return null;
  let value = list[from + 1];
  for (let i = from + 2; i < list.length; i += 2) value += `\r\n${list[i]}: ${list[i + 1]}`;
  return { name: list[from], value };
}

/**
 * Writes a whole response: `head` (the headers fixed for the body: type, ETag, …), then
 * `rest` (this request's). Corking packs status, headers and body into one send: uWS
 * does it for a request handler's synchronous part (`inHandler`), anything later must. `close`
 * answers with `Connection: close` (used while draining).
 */
export function sendBlock(
  res: HttpResponse,
  status: number,
  head: HeaderBlock,
  body: string | Buffer | BodyPart[],
  rest: HeaderBlock | null,
  close = false,
  headOnly = false,
  inHandler = false,
): void {
  // A single piece is sent as it is; several are joined in a reused buffer that end() copies.
  const whole = Array.isArray(body)
    ? body.length === 1 && typeof body[0] !== 'string'
      ? body[0]
      : assemble(body)
    : body;
  // In the handler no closure is made: the answer of a cached request allocates as little as it can.
  if (inHandler) writeWhole(res, status, head, rest, whole, close, headOnly);
  else res.cork(() => writeWhole(res, status, head, rest, whole, close, headOnly));
}

function writeWhole(
  res: HttpResponse,
  status: number,
  head: HeaderBlock,
  rest: HeaderBlock | null,
  body: string | Buffer,
  close: boolean,
  headOnly: boolean,
): void {
  if (status !== 200) res.writeStatus(STATUS_LINES[status] ?? `${status} Status`); // uWS writes 200 OK itself
  res.writeHeader(head.name, head.value);
  if (rest !== null) res.writeHeader(rest.name, rest.value);
  // A HEAD answer: headers only. (This uWS build aborts when endWithoutBody is given a
  // length, and endWithoutBody cannot close: a HEAD answer that must close sends no body.)
  if (headOnly && close) res.end('', true);
  else if (headOnly) res.endWithoutBody();
  else res.end(body, close);
}

/** Writes a whole response of `contentType` with `headers`. */
export function send(
  res: HttpResponse,
  status: number,
  contentType: string,
  body: string | Buffer | BodyPart[],
  headers: HeaderList,
  close = false,
  headOnly = false,
): void {
  sendBlock(res, status, { name: 'content-type', value: contentType }, body, headerBlock(headers), close, headOnly);
}

/**
 * Writes a problem+json response: `headers` (this request's), then the problem's own from the
 * catalogue (Retry-After, Allow, …); closes the connection when asked or when the code always
 * does. `instance` is the request id. Returns the body.
 */
export function sendProblem(
  res: HttpResponse,
  problem: Problem,
  headers: HeaderList,
  close = false,
  headOnly = false,
  instance?: string,
): string {
  const answer = problem.answer(instance);
  for (let i = 0; i < answer.headers.length; i += 2) {
    const name = answer.headers[i];
    const value = answer.headers[i + 1];
    // One Vary: the code's (Accept) first, then what the answer varies by already (Origin with a CORS_ORIGINS list).
    let at = -1;
    if (name === 'vary') for (let j = 0; j < headers.length && at < 0; j += 2) if (headers[j] === 'vary') at = j;
    if (at >= 0) headers[at + 1] = `${value}, ${headers[at + 1]}`;
    else headers.push(name, value);
  }
  send(res, answer.status, PROBLEM_TYPE, answer.body, headers, close || answer.close, headOnly);
  return answer.body;
}

/** Writes a response without a body or Content-Length (204, 304): status and headers only. */
export function sendEmpty(res: HttpResponse, status: number, headers: HeaderList, close = false): void {
  const block = headerBlock(headers);
  res.cork(() => {
    res.writeStatus(STATUS_LINES[status] ?? `${status} Status`);
    if (block !== null) res.writeHeader(block.name, block.value);
    if (close) res.writeHeader('connection', 'close');
    res.endWithoutBody();
  });
}
