// On a serving thread other than the main one: the dashboard and /metrics are answered by the
// main thread (it holds the operator sessions and reads every thread's figures). The request is
// handed to the main thread over a MessagePort and this thread waits a little for the answer
// (Atomics.wait), then sends it from the handler itself. Waiting is the point: uWS closes a
// connection that pipelines a request behind an answer still pending, dropping the answers
// before it in the same packet, so an answer that left later than its handler would lose them.
// What takes longer (a sign-in's password check, a write, a reload) is answered when it comes,
// as the main thread answers those itself: a serving thread never stalls for long.

import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { MAX_BODY } from '../admin/exchange.js';
import { requestFramingProblem } from '../http/framing.js';
import { requestIdOf } from '../http/request-id.js';
import { Problem } from '../problem.js';
import { sendProblem } from '../respond.js';
import type { ForwardAnswer, ForwardRequest } from './messages.js';

/** The paths the main thread answers for every serving thread. */
export const MAIN_THREAD_PATHS = ['/metrics', '/dashboard', '/dashboard/*', '/admin/*'] as const;

/**
 * Longest this thread blocks for the main thread's answer: /metrics and the dashboard's pages
 * and reads take a millisecond or two; past this the answer is sent when it arrives.
 */
export const FORWARD_WAIT_MS = 50;

/** The main thread's end of the hand-over: a port for requests and answers, a flag raised on each answer. */
export interface ForwardChannel {
  port: MessagePort;
  signal: SharedArrayBuffer;
}

/** A space or control character in a request target: uWS hands none over, and node:http would refuse to send it. */
const NOT_IN_TARGET = /[\u0000-\u0020\u007f]/;

/** Registers MAIN_THREAD_PATHS on `app`, each answered by the main thread over `channel`. */
export function forwardToMain(app: TemplatedApp, channel: ForwardChannel, waitMs = FORWARD_WAIT_MS): void {
  const raised = new Int32Array(channel.signal);
  let lastId = 0;
  /** Requests whose answer is sent when it arrives: their responses, by request id (dropped when the client leaves). */
  const later = new Map<number, { res: HttpResponse; request: ForwardRequest; requestId: string }>();
  const deliver = (answer: ForwardAnswer): void => {
    const waiting = later.get(answer.id);
    if (waiting === undefined) return; // its client left
    later.delete(answer.id);
    waiting.res.cork(() => send(waiting.res, waiting.request, answer, waiting.requestId));
  };
  channel.port.on('message', deliver); // answers that come while this thread is not waiting for them
  channel.port.unref();

  /** The main thread's answer to `request`, or null when it takes longer than `waitMs`. */
  function ask(request: ForwardRequest): ForwardAnswer | null {
    const deadline = performance.now() + waitMs;
    channel.port.postMessage(request);
    for (;;) {
      // Lowered before the port is read: an answer posted after this read raises it again, so the wait below returns.
      Atomics.store(raised, 0, 0);
      for (let m = receiveMessageOnPort(channel.port); m !== undefined; m = receiveMessageOnPort(channel.port)) {
        const answer = m.message as ForwardAnswer;
        if (answer.id === request.id) return answer;
        deliver(answer); // an answer to a request sent on when it came
      }
      const left = deadline - performance.now();
      if (left <= 0) return null;
      Atomics.wait(raised, 0, 0, left);
    }
  }

  /** Writes the main thread's answer as this thread's own (inside a cork). */
  function send(res: HttpResponse, request: ForwardRequest, back: ForwardAnswer, requestId: string): void {
    const headOnly = request.method === 'HEAD';
    if (back.failure !== undefined)
      return void sendProblem(
        res,
        new Problem('internal_error', `the main thread did not answer: ${back.failure}`),
        ['x-request-id', requestId],
        false,
        headOnly,
        requestId,
      );
    res.writeStatus(`${back.status} ${back.statusText}`);
    for (const [name, value] of back.headers) res.writeHeader(name, value);
    // uWS writes no body and no Content-Length for endWithoutBody() (given a length, this build aborts).
    if (headOnly) back.close ? res.end('', true) : res.endWithoutBody();
    else res.end(back.body, back.close);
  }

  /** Answers `request` now if the main thread answers within `waitMs`, else when it does. */
  function answer(res: HttpResponse, request: ForwardRequest, requestId: string): void {
    if (NOT_IN_TARGET.test(request.target))
      return void res.cork(() =>
        sendProblem(
          res,
          new Problem('malformed_request', 'the request target holds a control character'),
          ['x-request-id', requestId],
          false,
          request.method === 'HEAD',
          requestId,
        ),
      );
    const back = ask(request);
    if (back !== null) return void res.cork(() => send(res, request, back, requestId));
    later.set(request.id, { res, request, requestId });
    res.onAborted(() => later.delete(request.id));
  }

  const forward = (res: HttpResponse, req: HttpRequest): void => {
    const requestId = requestIdOf(req.getHeader('x-request-id'));
    // Refused here as the main thread would (a forward would send one of two Host fields, or could not send a field at all).
    const misframed = requestFramingProblem(req, true);
    if (misframed !== null)
      return void sendProblem(
        res,
        misframed,
        ['x-request-id', requestId],
        false,
        req.getMethod() === 'head',
        requestId,
      );
    const query = req.getQuery();
    const headers: [string, string][] = [];
    req.forEach((name, value) => void (name !== 'x-request-id' && headers.push([name, value])));
    headers.push(['x-request-id', requestId]); // the id this thread would answer with, whoever answers
    const request: ForwardRequest = {
      id: ++lastId,
      method: req.getCaseSensitiveMethod(),
      target: query ? `${req.getUrl()}?${query}` : req.getUrl(),
      headers,
      address: Buffer.from(res.getRemoteAddressAsText()).toString(),
      body: null,
    };
    const method = request.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'DELETE')
      return answer(res, request, requestId);
    // A body: answered when its last byte arrives (within this packet, that is still before any request pipelined behind it).
    const chunks: Buffer[] = [];
    let size = 0;
    let gone = false;
    res.onAborted(() => ((gone = true), later.delete(request.id)));
    res.onData((chunk, last) => {
      if (gone) return;
      chunks.push(Buffer.from(new Uint8Array(chunk).slice())); // uWS reuses the chunk's memory
      size += chunk.byteLength;
      // A body over the limit goes as its first MAX_BODY + 1 bytes: the main thread refuses it as it
      // refuses one sent to it directly, in the same order of checks (the session before the body).
      if (!last && size <= MAX_BODY) return;
      gone = true;
      request.body = Buffer.concat(chunks).subarray(0, MAX_BODY + 1);
      answer(res, request, requestId);
    });
  };
  for (const path of MAIN_THREAD_PATHS) app.any(path, forward);
}
