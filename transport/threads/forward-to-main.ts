// On a serving thread other than the main one: the dashboard and /metrics are answered by the
// main thread (it holds the operator sessions and every thread's figures), reached over a
// loopback port of its own. The request goes as it came, with the client's address.

import { Agent, request } from 'node:http';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { FORWARD_TOKEN_HEADER, FORWARDED_FOR_HEADER } from '../http/forwarded.js';
import { requestFramingProblem } from '../http/framing.js';
import { Problem } from '../problem.js';
import { sendProblem } from '../respond.js';

/** The paths the main thread answers for every serving thread. */
export const MAIN_THREAD_PATHS = ['/metrics', '/dashboard', '/dashboard/*', '/admin/*'] as const;

/** Fields of one hop only (RFC 9110 §7.6.1), and the ones the receiving side sets itself. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection', 'content-length', FORWARD_TOKEN_HEADER, FORWARDED_FOR_HEADER]);

/** Registers MAIN_THREAD_PATHS on `app`, each forwarded to the main thread at 127.0.0.1:`port`. */
export function forwardToMain(app: TemplatedApp, port: number, token: string): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const forward = (res: HttpResponse, req: HttpRequest): void => {
    // Two Host or Content-Length fields are refused here, as the main thread would: a forward would send only one of each.
    const misframed = requestFramingProblem(req);
    if (misframed !== null) return void sendProblem(res, misframed, [], true);
    const method = req.getMethod().toUpperCase();
    const query = req.getQuery();
    const headers: Record<string, string | string[]> = {};
    req.forEach((name, value) => {
      if (HOP.has(name) && name !== 'content-length') return;
      const had = headers[name];
      headers[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value]; // duplicates stay duplicates
    });
    headers[FORWARDED_FOR_HEADER] = Buffer.from(res.getRemoteAddressAsText()).toString();
    headers[FORWARD_TOKEN_HEADER] = token;
    let done = false;
    const out = request({ host: '127.0.0.1', port, method, path: query ? `${req.getUrl()}?${query}` : req.getUrl(), headers, agent }, (back) => {
      const chunks: Buffer[] = [];
      back.on('data', (chunk: Buffer) => chunks.push(chunk));
      back.on('end', () => {
        if (done) return;
        done = true;
        const close = back.headers.connection === 'close';
        res.cork(() => {
          res.writeStatus(`${back.statusCode} ${back.statusMessage}`);
          const raw = back.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) if (!HOP.has(raw[i].toLowerCase())) res.writeHeader(raw[i], raw[i + 1]);
          if (method === 'HEAD') res.endWithoutBody(Number(back.headers['content-length'] ?? 0));
          else res.end(Buffer.concat(chunks), close);
        });
      });
    });
    out.on('error', (error) => {
      if (done) return;
      done = true;
      res.cork(() => sendProblem(res, new Problem('internal_error', `the main thread did not answer: ${error.message}`), []));
    });
    res.onAborted(() => {
      done = true;
      out.destroy();
    });
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'DELETE') {
      out.end();
      return;
    }
    res.onData((chunk, last) => {
      out.write(Buffer.from(chunk.slice(0))); // uWS reuses the chunk's memory after this call
      if (last) out.end();
    });
  };
  for (const path of MAIN_THREAD_PATHS) app.any(path, forward);
}
