// What every request's exchange shares, whatever answers it (a data route, a service path, the
// dashboard, a path forwarded to the main thread): the request read once in the handler, the
// stages run inside one guard, one error handler turning any thrown value into one problem
// answer, and one continuation for the asynchronous steps, which never touches a response whose
// client left.

import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { Problem } from '../problem.js';

/**
 * The one mapping of a thrown value to the problem it answers, which every exchange answers
 * with: a Problem is itself, anything unexpected a logged 500 (`ServerContext.problemOf`).
 */
export type ProblemOf = (error: unknown, route: string, requestId: string) => Problem;

/** How long an asynchronous step may take, and who hears it abandoned (the client gone, the deadline passed). */
export interface AfterOptions {
  deadlineMs?: number;
  onAbort?: () => void;
}

const NO_OPTIONS: AfterOptions = Object.freeze({});

/**
 * One request. A subclass reads what it needs of `req` in its constructor (it is gone once the
 * handler returns), then `enter` runs its `stages`; a throw there, or in a continuation
 * (`after`), is answered by `fail`.
 */
export abstract class Exchange {
  /** True until the handler returns: uWS corks a handler's own writes, later ones must cork (respond.ts). */
  synchronous = true;
  /** Readable only until the handler returns (null after). */
  req: HttpRequest | null;
  /** The client left while an asynchronous step ran: `res` must not be touched again. */
  protected gone = false;
  private onGone: (() => void) | null = null;
  private watching = false;
  readonly started = performance.now();

  protected constructor(
    protected readonly res: HttpResponse,
    req: HttpRequest,
  ) {
    this.req = req;
  }

  /** This request's stages, in order, as far as they run in the handler. */
  protected abstract stages(): void;

  /** The problem a thrown value answers (a Problem is itself; anything else is logged by the host). */
  protected abstract problemOf(error: unknown): Problem;

  /** Writes `problem` as this exchange's answer and observes it (a forwarded request is observed where it is answered: the main thread). */
  protected abstract answerProblem(problem: Problem): void;

  /** Runs the stages in the handler; any throw is one problem answer; then `req` is gone. */
  enter(): void {
    try {
      this.stages();
    } catch (error) {
      this.fail(error);
    } finally {
      this.synchronous = false;
      this.req = null;
    }
  }

  /** The one error handler: any thrown value as its problem's answer (nothing when the client left). */
  fail(error: unknown): void {
    if (!this.gone) this.answerProblem(this.problemOf(error));
  }

  /** uWS needs onAborted before a handler returns without answering; one handler per request. */
  protected watch(then: (() => void) | null): void {
    this.onGone = then;
    if (!this.watching) (this.watching = true), this.res.onAborted(() => ((this.gone = true), this.onGone?.()));
  }

  /** An asynchronous step began (the data exchange holds its Dataset until it settles). */
  protected hold(): void {}
  protected settle(): void {}

  /**
   * The one continuation of every asynchronous step (a shared store's verdict or charge, pool
   * work, a request body, a forwarded answer, /metrics): the abort handler first, the request's
   * hold until it settles, then `then` with its value unless the client left; a rejection, or a
   * throw in `then`, is one problem answer. With `deadlineMs`, a step not done by then is a 503
   * deadline_exceeded and its value is dropped when it comes; `onAbort` hears the client leave or
   * the deadline pass (to stop the work). `then` runs outside the handler: its writes cork
   * (`corked`).
   */
  after<T>(pending: Promise<T>, then: (value: T) => void, options: AfterOptions = NO_OPTIONS): void {
    const { deadlineMs, onAbort } = options;
    let done = false;
    this.watch(() => {
      done = true; // the client left: `res` is never touched again
      onAbort?.();
    });
    this.hold();
    const timer =
      deadlineMs === undefined
        ? null
        : setTimeout(() => {
            if (done) return;
            done = true;
            onAbort?.();
            this.fail(new Problem('deadline_exceeded', `the request took longer than ${deadlineMs} ms`));
          }, deadlineMs);
    pending
      .then(
        (value) => {
          if (done || this.gone) return;
          done = true;
          try {
            then(value);
          } catch (error) {
            this.fail(error); // e.g. a serialiser refusing the value: still one answer
          }
        },
        (error: unknown) => {
          if (!done) (done = true), this.fail(error);
        },
      )
      .catch((error: unknown) => this.unanswerable(error))
      .finally(() => {
        if (timer !== null) clearTimeout(timer);
        this.settle();
      });
  }

  /** Runs `write` corked: at once in the handler (uWS corks it), else inside `res.cork`. */
  protected corked(write: () => void): void {
    if (this.synchronous) write();
    else this.res.cork(write);
  }

  /**
   * A throw while answering a throw, after the handler returned: logged (`problemOf` logs what
   * is not a Problem) and the connection closed. Left to reject, it would be an unhandled
   * rejection, which ends the process.
   */
  private unanswerable(error: unknown): void {
    this.problemOf(error);
    if (this.gone) return;
    this.gone = true;
    try {
      this.res.close();
    } catch {
      // already closed by uWS: nothing is left to answer
    }
  }
}
