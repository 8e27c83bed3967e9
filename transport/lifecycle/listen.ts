// Listening and closing: the app on its port (alone, or shared with the other serving threads),
// the forwarding port, and the RunningServer handed back to the caller.

import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { RunningServer, ServerOptions } from '../server.js';
import type { StreamHub } from '../stream/hub.js';
import type { ServerContext } from './context.js';

// LIBUS_LISTEN_EXCLUSIVE_PORT (1): otherwise uWS binds with SO_REUSEPORT and a second server shares a taken
// port silently; serving threads share theirs on purpose (0). The native listen(host, port, options, cb) is not
// in the package's typings.
const listen = (app: TemplatedApp, host: string, port: number, exclusive: boolean): Promise<us_listen_socket> =>
  new Promise((resolve, reject) => {
    const native = app.listen as unknown as (
      host: string,
      port: number,
      options: number,
      cb: (token: us_listen_socket | false) => void,
    ) => TemplatedApp;
    native.call(app, host, port, exclusive ? 1 : 0, (token: us_listen_socket | false) =>
      token ? resolve(token) : reject(new Error(`cannot listen on ${host}:${port}`)),
    );
  });

/**
 * A port the other serving threads can join: Linux lets no second SO_REUSEPORT socket onto an
 * ephemeral port bound as port 0, so port 0 becomes a free port found first (tried again if
 * someone takes it in between).
 */
async function listenShared(app: TemplatedApp, host: string, port: number): Promise<us_listen_socket> {
  if (port !== 0) return listen(app, host, port, false);
  for (let attempt = 1; ; attempt++) {
    const probe = await listen(app, host, 0, true);
    const free = uWS.us_socket_local_port(probe);
    uWS.us_listen_socket_close(probe);
    try {
      return await listen(app, host, free, false);
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/** Listens as `options` ask (sharedPort, forwardListen) and hands back the running server. */
export async function listenServer(
  app: TemplatedApp,
  ctx: ServerContext,
  options: ServerOptions,
  stream: StreamHub,
): Promise<RunningServer> {
  const token =
    options.sharedPort === true
      ? await listenShared(app, options.host, options.port)
      : await listen(app, options.host, options.port, true);
  const forward = options.forwardListen === true ? await listen(app, '127.0.0.1', 0, true) : null;
  let listening = true;
  return {
    port: uWS.us_socket_local_port(token),
    forwardPort: forward === null ? null : uWS.us_socket_local_port(forward),
    close: () => {
      // Once: uWS frees a listen socket when it closes, and closing it again reads freed memory (a segfault).
      if (!listening) return;
      listening = false;
      uWS.us_listen_socket_close(token);
      if (forward !== null) uWS.us_listen_socket_close(forward);
      ctx.turns.cutAll(); // exports in progress end with the server: idle() need not wait for a slow reader
    },
    closeAll: () => {
      stream.close();
      (app as unknown as { close(): void }).close(); // in the native app, not in the typings
    },
    idle: () => ctx.idle(),
    released: (dataset) => ctx.released(dataset),
    requests: ctx.requests,
    caches: ctx.caches,
    stream,
  };
}
