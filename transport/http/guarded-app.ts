// One guard around every request handler: uWS.js ends the process when a handler throws (and when
// it returns without an answer or an abort handler), so a bug in any handler, ours or the
// dashboard's, would be a way for one request to stop the server. Here it is one logged 500.

import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';

/** Told of an exception a handler threw, while `req` is still readable; answers `res` if it can. */
export type OnThrow = (error: unknown, res: HttpResponse, req: HttpRequest, pattern: string) => void;

type Handler = (res: HttpResponse, req: HttpRequest) => void;
const REGISTRATIONS = ['get', 'post', 'put', 'patch', 'del', 'options', 'head', 'connect', 'trace', 'any'] as const;

/** Makes every later registration on `app` run its handler inside `onThrow`'s guard; returns `app`. */
export function guardHandlers(app: TemplatedApp, onThrow: OnThrow): TemplatedApp {
  for (const method of REGISTRATIONS) {
    const register = app[method] as (pattern: string, handler: Handler) => TemplatedApp;
    (app as unknown as Record<string, unknown>)[method] = (pattern: string, handler: Handler): TemplatedApp =>
      register.call(app, pattern, (res: HttpResponse, req: HttpRequest) => {
        try {
          handler(res, req);
        } catch (error) {
          onThrow(error, res, req, pattern);
        }
      });
  }
  return app;
}

/**
 * Runs `write` (a whole answer) unless `res` is already answered or its client gone: uWS.js
 * throws on any use of such a response, which is the only way to tell.
 */
export function answerIfOpen(res: HttpResponse, write: () => void): boolean {
  try {
    res.cork(write);
    return true;
  } catch {
    return false;
  }
}
