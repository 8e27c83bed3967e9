// Hostile frames at /api/v1/stream of a THREADS=2 server: any text or bytes as messages (before and
// after the key), raw WebSocket frames of any opcode, flags, mask and payload after a real handshake,
// frames over the size bound, thousands of subscribe messages. No frame crashes or hangs a thread:
// after each, the server answers /livez and a fresh socket is welcomed, and every message on an open
// socket is answered (a reply or an error), none dropped. FUZZ_RUNS sets the cases (default 150).

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { FIXTURE, httpRequest } from '../helpers/api-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { openStream, type StreamClient, welcomed } from '../helpers/stream-client.js';
import { codePoint, runs } from './kit.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;

before(async () => {
  dir = await tempDir('mdq-stream-fuzz-');
  server = await startServerProcess({ snapshot: FIXTURE, state: dir.path, env: { THREADS: '2' } });
});
after(async () => {
  await server?.kill();
  await dir?.cleanup();
});

/** The server lives: /livez answers, and a new socket is welcomed and answers a subscribe. */
async function alive(): Promise<void> {
  assert.equal((await httpRequest(server.port, '/livez')).status, 200, 'the process answers');
  for (let i = 0; i < 2; i++) {
    const probe = await welcomed(server.port, { key: server.keys.internal! });
    probe.send({ action: 'subscribe', channel: 'editions' });
    await probe.waitFor((m) => m.type === 'subscribed', 3000);
    probe.close();
  }
}

/** Pieces client messages are made of, glued into near-valid frames. */
const PIECES = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '"action"',
  '"subscribe"',
  '"unsubscribe"',
  '"auth"',
  '"channel"',
  '"editions"',
  '"bars"',
  '"screen"',
  '"market"',
  '"ashare"',
  '"symbols"',
  '"*"',
  '"sh600001"',
  '"id"',
  '"query"',
  '"limit"',
  '"min_pe_ratio"',
  '"__proto__"',
  '"constructor"',
  'null',
  'true',
  '1e999',
  '-0',
  '99999999999999999999',
  '\\u0000',
  '\\ud800',
];

const message = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: codePoint, maxLength: 64 }) },
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          action: fc.constantFrom('subscribe', 'unsubscribe', 'auth', 'x', 7),
          channel: fc.constantFrom('editions', 'bars', 'screen', '', null),
          market: fc.constantFrom('ashare', 'hkstock', 'usstock', 'crypto', 'mars', 1),
          symbols: fc.oneof(fc.constant('*'), fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }), fc.anything()),
          id: fc.string({ maxLength: 80 }),
          query: fc.oneof(
            fc.dictionary(
              fc.constantFrom('limit', 'offset', 'sort', 'order', 'fields', 'min_pe_ratio', 'max_close', 'as_of', 'x'),
              fc.oneof(fc.string({ maxLength: 10 }), fc.double(), fc.integer(), fc.anything()),
            ),
            fc.anything(),
          ),
          key: fc.string({ maxLength: 60 }),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o) ?? '{}'),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 6 }) },
);

test('any text or bytes as client messages: each is answered on an open socket (a reply or an error), the socket stays open, no thread hangs', async () => {
  const key = server.keys.internal!;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(message, fc.uint8Array({ maxLength: 200 })), { minLength: 1, maxLength: 12 }),
      async (frames) => {
        const c = await welcomed(server.port, { key });
        try {
          for (const f of frames) c.send(typeof f === 'string' ? f : Buffer.from(f), typeof f !== 'string');
          // Every frame gets exactly one answer: an echo or an error (a screen's page may follow its echo).
          const replies = () => c.messages.filter((m) => m.type !== 'welcome' && m.type !== 'screen').length;
          await c.waitFor(() => replies() >= frames.length, 5000);
          await new Promise((r) => setTimeout(r, 20));
          assert.equal(replies(), frames.length, 'one answer per frame, none more');
          assert.equal(c.ws.readyState, c.ws.OPEN);
        } finally {
          c.ws.terminate();
        }
      },
    ),
    runs(RUNS),
  );
  await alive();
});

test('any frame before the key other than a good auth: closed 4001 unauthorized, nothing sent', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(message, fc.uint8Array({ minLength: 1, maxLength: 200 })), async (f) => {
      if (typeof f === 'string' && f.includes(server.keys.internal!)) return;
      const c = await openStream(server.port);
      c.send(typeof f === 'string' ? f : Buffer.from(f), typeof f !== 'string');
      const closed = await c.closed;
      assert.deepEqual([closed.code, closed.reason, c.messages], [4001, 'unauthorized', []]);
    }),
    runs(Math.ceil(RUNS / 3)),
  );
  await alive();
});

/** A WebSocket frame: FIN/RSV bits and opcode, masked (as a client must) or not, any payload. */
function frame(firstByte: number, payload: Uint8Array, masked: boolean, lengthForm: 0 | 126 | 127): Buffer {
  const len = payload.length;
  const form = len > 65535 ? 127 : len > 125 ? 126 : lengthForm === 127 ? 127 : lengthForm === 126 ? 126 : len;
  const header = [firstByte, (masked ? 0x80 : 0) | (form === 127 ? 127 : form === 126 ? 126 : len)];
  if (form === 126) header.push(len >> 8, len & 0xff);
  if (form === 127) header.push(0, 0, 0, 0, (len >>> 24) & 0xff, (len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff);
  const mask = masked ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(payload);
  if (masked) for (let i = 0; i < body.length; i++) body[i] ^= mask[i % 4];
  return Buffer.concat([Buffer.from(header), mask, body]);
}

/** A raw socket upgraded by hand (with a key); resolves once the 101 is read. */
function rawUpgrade(key: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () =>
      socket.write(
        [
          'GET /api/v1/stream HTTP/1.1',
          'Host: 127.0.0.1',
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          `X-API-Key: ${key}`,
          '',
          '',
        ].join('\r\n'),
      ),
    );
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 101')) reject(new Error(head));
      else resolve(socket);
    };
    socket.on('data', onData);
  });
}

test('raw frames of any opcode, RSV bits, mask, length form and payload after a real handshake: the thread lives on', async () => {
  const key = server.keys.internal!;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          first: fc.oneof(
            fc.integer({ min: 0, max: 255 }),
            fc.constantFrom(0x81, 0x82, 0x01, 0x80, 0x88, 0x89, 0x8a, 0x00),
          ),
          payload: fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constant(new Uint8Array(200))),
          masked: fc.boolean(),
          lengthForm: fc.constantFrom(0 as const, 126 as const, 127 as const),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      fc.uint8Array({ maxLength: 64 }),
      async (frames, junk) => {
        const socket = await rawUpgrade(key);
        const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        socket.on('error', () => {});
        for (const f of frames) socket.write(frame(f.first, f.payload, f.masked, f.lengthForm));
        socket.write(Buffer.from(junk));
        await Promise.race([ended, new Promise((r) => setTimeout(r, 100))]);
        socket.destroy();
      },
    ),
    runs(RUNS),
  );
  await alive();
});

test('a message over 64 KiB closes that connection with 1009 (over 128 KiB, at once); the others and the thread live on', async () => {
  const key = server.keys.internal!;
  const bystander = await welcomed(server.port, { key });
  for (const [size, code] of [
    [64 * 1024 + 1, 1009],
    [128 * 1024, 1009],
    [128 * 1024 + 1, 1006],
    [1024 * 1024, 1006],
  ]) {
    const c = await welcomed(server.port, { key });
    c.send('x'.repeat(size));
    const closed = await c.closed;
    assert.equal(closed.code, code, `a message of ${size} bytes`);
    if (code === 1009) assert.equal(closed.reason, 'message_too_big');
  }
  // 64 KiB exactly is a message like any other: read and answered (its unknown field an error naming it), the socket kept.
  const edge = await welcomed(server.port, { key });
  const [head, tail] = ['{"action":"subscribe","channel":"editions","pad":"', '"}'];
  edge.send(`${head}${'x'.repeat(64 * 1024 - head.length - tail.length)}${tail}`);
  const refused = await edge.waitFor((m) => m.type === 'error');
  assert.match(String(refused.detail), /pad/, JSON.stringify(refused).slice(0, 300));
  edge.send({ action: 'subscribe', channel: 'editions' });
  await edge.waitFor((m) => m.type === 'subscribed');
  edge.close();
  bystander.send({ action: 'subscribe', channel: 'editions' });
  await bystander.waitFor((m) => m.type === 'subscribed');
  bystander.close();
  await alive();
});

test('thousands of subscribe messages: each answered (subscribed, too_many_subscriptions or rate_limited), in order, and the server answers HTTP meanwhile', async () => {
  const c: StreamClient = await welcomed(server.port, { key: server.keys.pro! }); // 120 a minute, 50 subscriptions
  const sent = 5000;
  const symbols = ['sh600001', 'sz000002', 'sz000003', 'sz000004', 'sz000005', 'sh600006', 'sh600007', 'sh600009'];
  for (let i = 0; i < sent; i++) {
    if (i % 3 === 0) c.send({ action: 'subscribe', channel: 'editions' });
    else if (i % 3 === 1) c.send({ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: [symbols[i % 8]] });
    else c.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: `s${i}`, query: { limit: 2 } });
  }
  const replies = () => c.messages.filter((m) => m.type === 'subscribed' || m.type === 'error');
  const health = await httpRequest(server.port, '/livez');
  assert.equal(health.status, 200);
  await c.waitFor(() => replies().length >= sent, 20_000);
  const r = replies();
  assert.equal(r.length, sent, 'one answer per message');
  const codes = r.reduce<Record<string, number>>(
    (n, m) => ((n[m.type === 'error' ? m.code : m.type] = (n[m.type === 'error' ? m.code : m.type] ?? 0) + 1), n),
    {},
  );
  assert.ok(codes.rate_limited > 4000, JSON.stringify(codes));
  assert.ok(
    codes.subscribed >= 100 && codes.subscribed <= 160,
    `the bucket's 120 tokens and its refill: ${JSON.stringify(codes)}`,
  );
  c.close();
  await alive();
});
