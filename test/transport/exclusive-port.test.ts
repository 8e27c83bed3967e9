// The listener takes its port exclusively: a second server, or any other process, on a taken port is refused.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import uWS from 'uWebSockets.js';
import { Guard } from '../../transport/guard/guard.js';
import { startServer } from '../../transport/server.js';

const bare = (port: number) =>
  startServer({ host: '127.0.0.1', port, guard: new Guard(), state: { dataset: null, draining: false } });

test('a second startServer on a port the first holds is refused naming host:port', async (t) => {
  const first = await bare(0);
  t.after(() => first.close());
  await assert.rejects(bare(first.port), { message: `cannot listen on 127.0.0.1:${first.port}` });
});

test('startServer on a port another listener holds (a Node server) is refused', async (t) => {
  const other = createServer();
  await new Promise<void>((ok) => other.listen({ host: '127.0.0.1', port: 0 }, ok));
  t.after(() => other.close());
  const port = (other.address() as { port: number }).port;
  await assert.rejects(bare(port), { message: `cannot listen on 127.0.0.1:${port}` });
});

test('the port is free again once the server has closed', async () => {
  const first = await bare(0);
  first.close();
  const again = await bare(first.port);
  again.close();
  assert.equal(again.port, first.port);
});

test('closing a server twice (a drain, then the stop) closes its listen socket once: a second native close reads freed memory', async (t) => {
  // uWS frees a listen socket when it closes; closing it again crashed the process now and then (a segfault).
  const native = uWS.us_listen_socket_close;
  const closed: unknown[] = [];
  (uWS as { us_listen_socket_close: typeof native }).us_listen_socket_close = (token) => {
    closed.push(token);
    native(token);
  };
  t.after(() => ((uWS as { us_listen_socket_close: typeof native }).us_listen_socket_close = native));
  const server = await bare(0);
  server.close();
  server.close();
  assert.equal(closed.length, 1, 'one native close');
  const again = await bare(server.port);
  assert.equal(
    (await fetch(`http://127.0.0.1:${again.port}/livez`)).status,
    200,
    'the port is free, the process serves on',
  );
  again.close();
});
