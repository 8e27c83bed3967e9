// The one way an answer leaves, whole or streamed: a whole answer cork → status → headers → end (the
// socket discipline of style.md), a problem as the catalogue makes it, an empty 204/304, an answer
// the main thread made for another serving thread; a stream's head and body (an export, its chunks
// in the thread's turns), and each WebSocket message, to one socket or published once to a topic.

import type { HttpResponse, TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { StreamedBody } from './lifecycle/streamed-body.js';
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

/** How an answer ends: with `Connection: close` (draining, a problem that always closes); headers only (HEAD). */
export interface Ending {
  close?: boolean;
  headOnly?: boolean;
}

/** A whole answer: its status, the headers its body fixes, this request's, and the body. */
export interface WholeAnswer extends Ending {
  status: number;
  /** The headers the body fixes (type, ETag, …): a kept answer keeps this block with it. */
  head: HeaderBlock;
  /** This request's own headers (request id, limits, CORS), or null. */
  rest: HeaderBlock | null;
  body: string | Buffer | BodyPart[];
  /** Written in the handler's synchronous part, which uWS corks already: no closure is made. */
  inHandler?: boolean;
}

/**
 * Writes a whole answer. Corking packs status, headers and body into one send: uWS does it for a
 * request handler's synchronous part (`inHandler`), anything later must.
 */
export function sendWhole(res: HttpResponse, a: WholeAnswer): void {
  // A single piece is sent as it is; several are joined in a reused buffer that end() copies.
  const { body } = a;
  const whole = Array.isArray(body)
    ? body.length === 1 && typeof body[0] !== 'string'
      ? body[0]
      : assemble(body)
    : body;
  // In the handler no closure is made: the answer of a cached request allocates as little as it can.
  if (a.inHandler === true) writeWhole(res, a, whole);
  else res.cork(() => writeWhole(res, a, whole));
}

function writeWhole(res: HttpResponse, a: WholeAnswer, body: string | Buffer): void {
  if (a.status !== 200) res.writeStatus(STATUS_LINES[a.status] ?? `${a.status} Status`); // uWS writes 200 OK itself
  res.writeHeader(a.head.name, a.head.value);
  if (a.rest !== null) res.writeHeader(a.rest.name, a.rest.value);
  // A HEAD answer: headers only. (This uWS build aborts when endWithoutBody is given a
  // length, and endWithoutBody cannot close: a HEAD answer that must close sends no body.)
  if (a.headOnly === true && a.close === true) res.end('', true);
  else if (a.headOnly === true) res.endWithoutBody();
  else res.end(body, a.close === true);
}

/** Writes a whole answer of `contentType` with `headers` (this request's). */
export function send(
  res: HttpResponse,
  answer: { status: number; contentType: string; body: string | Buffer | BodyPart[]; headers: HeaderList } & Ending,
): void {
  const { status, contentType, body, headers, close, headOnly } = answer;
  sendWhole(res, {
    status,
    head: { name: 'content-type', value: contentType },
    rest: headerBlock(headers),
    body,
    close,
    headOnly,
  });
}

/**
 * Writes a problem+json answer: `headers` (this request's), then the problem's own from the
 * catalogue (Retry-After, Allow, …); closes the connection when asked or when the code always
 * does. `instance` is the request id. Returns the body.
 */
export function sendProblem(
  res: HttpResponse,
  problem: Problem,
  answer: { headers: HeaderList; instance?: string } & Ending,
): string {
  const made = problem.answer(answer.instance);
  const { headers } = answer;
  for (let i = 0; i < made.headers.length; i += 2) {
    const name = made.headers[i];
    const value = made.headers[i + 1];
    // One Vary: the code's (Accept) first, then what the answer varies by already (Origin with a CORS_ORIGINS list).
    let at = -1;
    if (name === 'vary') for (let j = 0; j < headers.length && at < 0; j += 2) if (headers[j] === 'vary') at = j;
    if (at >= 0) headers[at + 1] = `${value}, ${headers[at + 1]}`;
    else headers.push(name, value);
  }
  send(res, {
    status: made.status,
    contentType: PROBLEM_TYPE,
    body: made.body,
    headers,
    close: answer.close === true || made.close,
    headOnly: answer.headOnly,
  });
  return made.body;
}

/** Writes an answer without a body or Content-Length (204, 304): status and headers only. */
export function sendEmpty(res: HttpResponse, status: number, headers: HeaderList, close = false): void {
  const block = headerBlock(headers);
  res.cork(() => {
    res.writeStatus(STATUS_LINES[status] ?? `${status} Status`);
    if (block !== null) res.writeHeader(block.name, block.value);
    if (close) res.writeHeader('connection', 'close');
    res.endWithoutBody();
  });
}

/** An answer another thread made (the main thread's, for a request a serving thread forwarded), written as it came. */
export interface RelayedAnswer {
  /** The status line: `200 OK`. */
  statusLine: string;
  /** Every field but Date and Content-Length, which uWS writes. */
  headers: readonly [string, string][];
  body: Uint8Array;
  close: boolean;
}

/** Writes a relayed answer (headers only for a HEAD request). */
export function sendRelayed(res: HttpResponse, a: RelayedAnswer, headOnly: boolean): void {
  res.cork(() => {
    res.writeStatus(a.statusLine);
    for (const [name, value] of a.headers) res.writeHeader(name, value);
    // uWS writes no body and no Content-Length for endWithoutBody() (given a length, this build aborts).
    if (headOnly) a.close ? res.end('', true) : res.endWithoutBody();
    else res.end(a.body, a.close);
  });
}

// ---- Streams ------------------------------------------------------------------------------------

/**
 * Starts a streamed answer (an export): its head (200, `headers`) now, then its body's chunks in
 * the thread's turns (`StreamedBody`, which writes each into this response and ends it).
 */
export function startStream(
  res: HttpResponse,
  stream: { headers: HeaderList; body: StreamedBody; inHandler: boolean },
): void {
  const start = (): void => {
    const block = headerBlock(stream.headers);
    if (block !== null) res.writeHeader(block.name, block.value);
    stream.body.start();
  };
  if (stream.inHandler) start();
  else res.cork(start);
}

/** Sends one WebSocket message (JSON text, or a msgpack binary frame) to one socket, corked (a message outside its handlers must be). */
export function sendFrame<T>(ws: WebSocket<T>, frame: string | Uint8Array): void {
  ws.cork(() => ws.send(frame, typeof frame !== 'string'));
}

/** Publishes one WebSocket message once to every socket of `app` on `topic`; returns how many it reached. */
export function publishFrame(app: TemplatedApp, topic: string, frame: string | Uint8Array): number {
  app.publish(topic, frame, typeof frame !== 'string');
  return app.numSubscribers(topic);
}
