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
import { Exchange, type ProblemOf } from '../lifecycle/exchange.js';
import { Problem } from '../problem.js';
import { sendProblem, sendRelayed } from '../respond.js';
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

/** Registers MAIN_THREAD_PATHS on `app`, each answered by the main thread over `channel`; a throw answers through `problemOf`. */
export function forwardToMain(
  app: TemplatedApp,
  channel: ForwardChannel,
  problemOf: ProblemOf,
  waitMs = FORWARD_WAIT_MS,
): void {
  const forwarder = new Forwarder(channel, waitMs);
  for (const path of MAIN_THREAD_PATHS)
    app.any(path, (res, req) => new ForwardExchange(forwarder, problemOf, path, res, req).enter());
}

/** This thread's end of the hand-over: requests out on the port, answers back by request id. */
class Forwarder {
  private readonly raised: Int32Array;
  private lastId = 0;
  /** Requests whose answer is sent when it arrives, by id: what takes it (dropped when the client leaves). */
  private readonly later = new Map<number, (answer: ForwardAnswer) => void>();

  constructor(
    private readonly channel: ForwardChannel,
    private readonly waitMs: number,
  ) {
    this.raised = new Int32Array(channel.signal);
    channel.port.on('message', (answer: ForwardAnswer) => this.deliver(answer)); // answers that come while this thread is not waiting
    channel.port.unref();
  }

  nextId(): number {
    return ++this.lastId;
  }

  private deliver(answer: ForwardAnswer): void {
    const take = this.later.get(answer.id);
    if (take === undefined) return; // its client left
    this.later.delete(answer.id);
    take(answer);
  }

  /** The main thread's answer to `request`, or null when it takes longer than `waitMs`. */
  ask(request: ForwardRequest): ForwardAnswer | null {
    const { port } = this.channel;
    const deadline = performance.now() + this.waitMs;
    port.postMessage(request);
    for (;;) {
      // Lowered before the port is read: an answer posted after this read raises it again, so the wait below returns.
      Atomics.store(this.raised, 0, 0);
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const answer = m.message as ForwardAnswer;
        if (answer.id === request.id) return answer;
        this.deliver(answer); // an answer to a request sent on when it came
      }
      const left = deadline - performance.now();
      if (left <= 0) return null;
      Atomics.wait(this.raised, 0, 0, left);
    }
  }

  /** The answer to request `id` when it arrives (after `ask` gave up waiting for it). */
  answerOf(id: number): Promise<ForwardAnswer> {
    return new Promise((take) => this.later.set(id, take));
  }

  forget(id: number): void {
    this.later.delete(id);
  }
}

/** One request for the main thread: frame → (its body) → forward → relay the answer, any throw one problem answer. */
class ForwardExchange extends Exchange {
  readonly request: ForwardRequest;
  private readonly requestId: string;
  private readonly misframed: Problem | null;

  constructor(
    private readonly forwarder: Forwarder,
    private readonly problems: ProblemOf,
    private readonly pattern: string,
    res: HttpResponse,
    req: HttpRequest,
  ) {
    super(res, req);
    this.requestId = requestIdOf(req.getHeader('x-request-id'));
    // Refused here as the main thread would (a forward would send one of two Host fields, or could not send a field at all).
    this.misframed = requestFramingProblem(req, true);
    const query = req.getQuery();
    const headers: [string, string][] = [];
    req.forEach((name, value) => void (name !== 'x-request-id' && headers.push([name, value])));
    headers.push(['x-request-id', this.requestId]); // the id this thread would answer with, whoever answers
    this.request = {
      id: forwarder.nextId(),
      method: req.getCaseSensitiveMethod(),
      target: query ? `${req.getUrl()}?${query}` : req.getUrl(),
      headers,
      address: Buffer.from(res.getRemoteAddressAsText()).toString(),
      body: null,
    };
  }

  protected stages(): void {
    if (this.misframed !== null) throw this.misframed;
    const method = this.request.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'DELETE') return this.forward();
    // A body: answered when its last byte arrives (within this packet, that is still before any request pipelined behind it).
    const chunks: Buffer[] = [];
    let size = 0;
    let read = false;
    this.watch(() => this.forwarder.forget(this.request.id));
    this.res.onData((chunk, last) => {
      if (read || this.gone) return;
      chunks.push(Buffer.from(new Uint8Array(chunk).slice())); // uWS reuses the chunk's memory
      size += chunk.byteLength;
      // A body over the limit goes as its first MAX_BODY + 1 bytes: the main thread refuses it as it
      // refuses one sent to it directly, in the same order of checks (the session before the body).
      if (!last && size <= MAX_BODY) return;
      read = true;
      this.request.body = Buffer.concat(chunks).subarray(0, MAX_BODY + 1);
      try {
        this.forward();
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /** Answers now if the main thread answers within the wait, else when it does. */
  private forward(): void {
    if (NOT_IN_TARGET.test(this.request.target))
      throw new Problem('malformed_request', 'the request target holds a control character');
    const back = this.forwarder.ask(this.request);
    if (back !== null) return this.relay(back);
    const { id } = this.request;
    this.after(this.forwarder.answerOf(id), (later) => this.relay(later), { onAbort: () => this.forwarder.forget(id) });
  }

  /** Writes the main thread's answer as this thread's own. */
  private relay(back: ForwardAnswer): void {
    if (back.failure !== undefined)
      return this.fail(new Problem('internal_error', `the main thread did not answer: ${back.failure}`));
    const headOnly = this.request.method.toUpperCase() === 'HEAD';
    sendRelayed(
      this.res,
      { statusLine: `${back.status} ${back.statusText}`, headers: back.headers, body: back.body, close: back.close },
      headOnly,
    );
  }

  protected problemOf(error: unknown): Problem {
    return this.problems(error, this.pattern, this.requestId);
  }

  protected answerProblem(problem: Problem): void {
    const headOnly = this.request.method.toUpperCase() === 'HEAD';
    sendProblem(this.res, problem, { headers: ['x-request-id', this.requestId], headOnly, instance: this.requestId });
  }
}
