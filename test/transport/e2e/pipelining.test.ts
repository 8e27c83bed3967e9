// A client that pipelines many requests on one connection gets every answer, in order.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { DEFAULT_MIN_SCREEN_ROWS } from '../../../engine/pool/pool.js';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';

let server: TestServer;
before(async () => (server = await startTestServer()));
after(() => server.close());

interface RawResponse {
  status: number;
  /** The X-Request-Id the server answered with. */
  requestId: string | undefined;
  body: string;
}

/** Sends every request in one write and reads `count` responses (Content-Length framed). */
function pipeline(port: number, requests: string[]): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    const out: RawResponse[] = [];
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const requestId = /\r\nx-request-id: ([^\r]*)/i.exec(head)?.[1];
        out.push({
          status: Number(head.split(' ')[1]),
          requestId,
          body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        buffer = buffer.subarray(end + 4 + length);
        if (out.length === requests.length) {
          socket.end();
          resolve(out);
          return;
        }
      }
    });
    socket.on('error', reject);
    socket.write(requests.join(''));
  });
}

test('30 pipelined requests of every kind come back complete and in request order', async () => {
  const paths = [
    '/api/v1/markets',
    '/api/v1/ashare/klines/sh600001?limit=3',
    '/api/v1/ashare/klines/sh600001?limit=2&adj=qfq',
    '/api/v1/ashare/detail/sh600001?fields=close',
    '/api/v1/ashare/screen?limit=2',
    '/api/v1/ashare/klines/nope',
    '/api/v1/ashare/klines?symbols=sh600001,sz000003&date=2025-03-14',
    '/api/v1/macro?limit=1',
    '/api/v1/quota',
    '/api/v1/ashare/symbols?search=600',
  ];
  const sequence = [...paths, ...paths, ...paths];
  // Each request names itself, so a problem body's `instance` (the request id) is known too.
  const requests = sequence.map(
    (path, n) =>
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${server.keys.internal}\r\nX-Request-Id: pipe-${n}\r\n\r\n`,
  );
  const responses = await pipeline(server.port, requests);
  assert.equal(responses.length, sequence.length, 'one answer per request');
  for (let n = 0; n < sequence.length; n++) {
    assert.equal(responses[n].requestId, `pipe-${n}`, `answer ${n} answers request ${n} (${sequence[n]})`);
    const expected = await server.get(sequence[n], {
      key: server.keys.internal,
      headers: { 'x-request-id': `pipe-${n}` },
    });
    assert.equal(responses[n].status, expected.status, `status of answer ${n} (${sequence[n]})`);
    if (sequence[n] !== '/api/v1/quota')
      assert.equal(responses[n].body, expected.text, `body of answer ${n} (${sequence[n]})`);
    else assert.equal(JSON.parse(responses[n].body).plan, 'internal');
  }
});

test('with the default pool threshold, pipelined screens are answered inline: complete and in order', async (t) => {
  const pooled = await startTestServer({ pool: true, minScreenRows: DEFAULT_MIN_SCREEN_ROWS });
  t.after(() => pooled.close());
  const paths = [
    '/api/v1/ashare/screen?limit=3',
    '/api/v1/markets',
    '/api/v1/ashare/screen?sort=close&order=asc',
    '/api/v1/ashare/klines/sh600001?limit=2',
    '/api/v1/hkstock/screen',
  ];
  const sequence = [...paths, ...paths, ...paths, ...paths];
  const requests = sequence.map(
    (path) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${pooled.keys.internal}\r\n\r\n`,
  );
  const responses = await pipeline(pooled.port, requests);
  assert.equal(responses.length, sequence.length, 'one answer per request, none dropped');
  for (let n = 0; n < sequence.length; n++) {
    const expected = await pooled.get(sequence[n], { key: pooled.keys.internal });
    assert.equal(responses[n].status, 200, `status of answer ${n} (${sequence[n]})`);
    assert.equal(responses[n].body, expected.text, `body of answer ${n} (${sequence[n]})`);
  }
});

test('a pipelined request behind one sent to the pool closes that connection (uWS #277) and the server serves on', async (t) => {
  const pooled = await startTestServer({ pool: true, minScreenRows: 0 });
  t.after(() => pooled.close());
  const one = `GET /api/v1/ashare/screen?limit=1 HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${pooled.keys.internal}\r\n\r\n`;
  const received = await new Promise<string>((resolve, reject) => {
    const socket = connect(pooled.port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(one + one);
  });
  assert.ok(received === '' || received.startsWith('HTTP/1.1 '), 'nothing or whole responses, never garbage');
  const after = await pooled.get('/api/v1/ashare/screen?limit=1', { key: pooled.keys.internal });
  assert.equal(after.status, 200, 'the next (unpipelined) request is served');
});
