// deploy/nginx.conf in front of the real server: HTTP/1.0, 16 KiB heads in segments, 431 beyond, malformed heads as problem+json, request ids, retry; and what uWS does without it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, test, type TestContext } from 'node:test';
import { startTestServer, httpRequest, type TestServer } from '../helpers/api-server.js';
import {
  freePort,
  NGINX,
  NGINX_CONF,
  nginxArgs,
  nginxPrefix,
  startNginx,
  type NginxProcess,
} from '../helpers/nginx.js';
import { assertOutcome } from '../helpers/bad-request-outcome.js';
import { API_INPUT, FRAMING } from '../helpers/bad-requests.js';
import { rawRequest, requestHead, segments } from '../helpers/raw-request.js';
import { welcomed } from '../helpers/stream-client.js';
import { needsCommand } from '../helpers/system-command.js';

/** The head size every client may send through nginx, and one it refuses. */
const ACCEPTED = 16 * 1024;
const REFUSED = 20 * 1024;

interface Rig {
  api: TestServer;
  nginx: NginxProcess;
}

let rig: Promise<Rig> | null = null;
/** One API server and one nginx in front of it, shared by the tests below and stopped after them. */
function started(): Promise<Rig> {
  rig ??= (async () => {
    const api = await startTestServer();
    try {
      return { api, nginx: await startNginx([api.port]) };
    } catch (error) {
      await api.close();
      throw error;
    }
  })();
  return rig;
}
after(async () => {
  if (rig === null) return;
  const { api, nginx } = await rig;
  await nginx.stop();
  await api.close();
});

const hasNginx = (t: TestContext): boolean => needsCommand(t, NGINX, 'nginx', ['-v']);

test('the shipped deploy/nginx.conf passes nginx -t in a prefix of its own', async (t) => {
  if (!hasNginx(t)) return;
  const prefix = await nginxPrefix();
  t.after(prefix.cleanup);
  const run = spawnSync(NGINX, ['-t', ...nginxArgs(prefix.path, NGINX_CONF)], { encoding: 'utf8' });
  assert.equal(run.status, 0, `nginx -t refused the file:\n${run.stderr}`);
});

test('through nginx, an HTTP/1.0 request (no Host, like `GET /healthz HTTP/1.0`) is answered 200', async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const got = await rawRequest(nginx.port, [Buffer.from('GET /healthz HTTP/1.0\r\n\r\n')]);
  assert.equal(got.kind, 'answer', `an answer, not ${got.kind}`);
  assert.equal(got.kind === 'answer' && got.status, 200);
  assert.equal(got.kind === 'answer' && JSON.parse(got.body).status, 'ok');
});

test(`through nginx, a ${ACCEPTED}-byte head sent in 1,460-byte segments is answered 200`, async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const head = requestHead({ path: '/healthz', headers: { Connection: 'close' }, size: ACCEPTED });
  const got = await rawRequest(nginx.port, segments(head), { gapMs: 2 });
  assert.equal(got.kind, 'answer', `an answer, not ${got.kind}`);
  assert.equal(got.kind === 'answer' && got.status, 200);
});

test(`through nginx, a ${ACCEPTED}-byte head made of one long header line is answered 200`, async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const head = requestHead({ path: '/healthz', headers: { Connection: 'close' }, size: ACCEPTED, padLine: ACCEPTED });
  const got = await rawRequest(nginx.port, segments(head), { gapMs: 2 });
  assert.equal(got.kind === 'answer' && got.status, 200, `200, not ${JSON.stringify(got).slice(0, 200)}`);
});

/** A 431 answer with the catalogue's header_too_large problem body, its instance the X-Request-Id. */
function assertHeaderTooLarge(got: Awaited<ReturnType<typeof rawRequest>>): void {
  assert.equal(got.kind, 'answer', `an answer, not ${got.kind}`);
  if (got.kind !== 'answer') return;
  assert.equal(got.status, 431);
  assert.equal(got.headers['content-type'], 'application/problem+json');
  const body = JSON.parse(got.body);
  assert.equal(body.code, 'header_too_large');
  assert.equal(body.status, 431);
  assert.equal(body.instance, got.headers['x-request-id'], 'instance is the X-Request-Id of the answer');
  assert.ok(got.ms < 1_000, `answered within 1 s (took ${got.ms.toFixed(0)} ms)`);
}

test(`through nginx, a ${REFUSED}-byte head in 1,460-byte segments is answered 431 problem+json within 1 s`, async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const head = requestHead({ path: '/healthz', headers: { 'X-Request-Id': 'big-head-1' }, size: REFUSED });
  const got = await rawRequest(nginx.port, segments(head), { gapMs: 2, timeoutMs: 3_000 });
  assertHeaderTooLarge(got);
  assert.equal(
    got.kind === 'answer' && got.headers['x-request-id'],
    'big-head-1',
    "the client's id, read before the overflow",
  );
});

test(`through nginx, a ${REFUSED}-byte request line (nginx's 414) is answered 431 problem+json within 1 s`, async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const head = Buffer.from(`GET /healthz?pad=${'a'.repeat(REFUSED)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  assertHeaderTooLarge(await rawRequest(nginx.port, segments(head), { gapMs: 2, timeoutMs: 3_000 }));
});

test("through nginx, a too-large head whose X-Request-Id holds a quote gets a valid JSON body with nginx's own id", async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const head = requestHead({ path: '/healthz', headers: { 'X-Request-Id': 'a"},"code":"x' }, size: REFUSED });
  const got = await rawRequest(nginx.port, segments(head), { gapMs: 2, timeoutMs: 3_000 });
  assertHeaderTooLarge(got);
  assert.match(got.kind === 'answer' ? got.headers['x-request-id'] : '', /^[0-9a-f]{32}$/);
});

test("through nginx, the HTTP bad-input corpus: a problem+json answer per case, within 1 s but for more than 48 header fields (502 at the instance's idle close)", async (t) => {
  if (!hasNginx(t)) return;
  const { api, nginx } = await started();
  const cases = [...FRAMING, ...API_INPUT];
  const outcomes = await Promise.all(
    cases.map((c) =>
      rawRequest(nginx.port, [Buffer.from(c.text.replace('{key}', api.keys.pro), 'latin1')], { timeoutMs: 20_000 }),
    ),
  );
  cases.forEach((c, i) => assertOutcome(c.name, outcomes[i], c.viaNginx));
  const next = await httpRequest(nginx.port, '/healthz');
  assert.equal(next.status, 200, 'the next request is served');
});

test('through nginx, /api/v1/stream upgrades: welcome, a subscription echoed, a screen page; a plain GET there is 426', async (t) => {
  if (!hasNginx(t)) return;
  const { api, nginx } = await started();
  const c = await welcomed(nginx.port, { key: api.keys.pro });
  t.after(() => c.close());
  c.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'top', query: { limit: 2 } });
  const page = await c.waitFor((m) => m.type === 'screen');
  assert.equal(page.data.length, 2);
  assert.deepEqual(c.messages[1], {
    type: 'subscribed',
    channel: 'screen',
    market: 'ashare',
    id: 'top',
    query: { limit: 2 },
  });
  const plain = await httpRequest(nginx.port, '/api/v1/stream', { headers: { 'x-api-key': api.keys.pro } });
  assert.equal(plain.status, 426);
  assert.equal(plain.body.code, 'upgrade_required');
});

test("through nginx, the client's X-Request-Id comes back unchanged", async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const got = await httpRequest(nginx.port, '/healthz', { headers: { 'x-request-id': 'desk-7:order/42' } });
  assert.equal(got.status, 200);
  assert.equal(got.headers['x-request-id'], 'desk-7:order/42');
});

test("through nginx, a request without X-Request-Id gets nginx's own (32 hex digits), a new one each time", async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const [a, b] = [await httpRequest(nginx.port, '/healthz'), await httpRequest(nginx.port, '/healthz')];
  assert.match(String(a.headers['x-request-id']), /^[0-9a-f]{32}$/);
  assert.match(String(b.headers['x-request-id']), /^[0-9a-f]{32}$/);
  assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  assert.match(
    await nginx.accessLog(),
    new RegExp(`id=${a.headers['x-request-id']}\\b`),
    "nginx's access log holds the same id",
  );
});

test("through nginx, an X-Request-Id the API would not echo (over 128 characters) is replaced by nginx's", async (t) => {
  if (!hasNginx(t)) return;
  const { nginx } = await started();
  const got = await httpRequest(nginx.port, '/healthz', { headers: { 'x-request-id': 'x'.repeat(129) } });
  assert.match(String(got.headers['x-request-id']), /^[0-9a-f]{32}$/);
});

test('through nginx, an instance that refuses connections is skipped: every request is answered 200 by the other', async (t) => {
  if (!hasNginx(t)) return;
  const { api } = await started();
  const nginx = await startNginx([await freePort(), api.port]);
  t.after(nginx.stop);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await httpRequest(nginx.port, '/healthz')).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
});

// Without nginx: what this uWS build (v20.30) does with the same requests (pinned so a change of build shows).

test('direct to uWS, an HTTP/1.0 request gets no answer: not a byte, and the connection is closed at the idle timeout (~10-12 s)', async (t) => {
  if (!hasNginx(t)) return; // shares the rig; the behaviour itself needs no nginx
  const { api } = await started();
  const [bare, withHost] = await Promise.all([
    rawRequest(api.port, [Buffer.from('GET /healthz HTTP/1.0\r\n\r\n')], { timeoutMs: 20_000 }),
    rawRequest(
      api.port,
      [Buffer.from('GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n')],
      { timeoutMs: 20_000 },
    ),
  ]);
  for (const got of [bare, withHost]) {
    assert.equal(got.kind, 'closed', `closed without a byte, not ${got.kind}`);
    assert.ok(got.ms > 5_000 && got.ms < 16_000, `closed by the idle timeout, after ${got.ms.toFixed(0)} ms`);
  }
});

test(`direct to uWS, the ${ACCEPTED}-byte head in 1,460-byte segments is dropped: closed at once without an answer`, async (t) => {
  if (!hasNginx(t)) return;
  const { api } = await started();
  const head = requestHead({ path: '/healthz', headers: { Connection: 'close' }, size: ACCEPTED });
  const got = await rawRequest(api.port, segments(head), { gapMs: 2, timeoutMs: 3_000 });
  assert.equal(got.kind, 'closed', `closed without a byte, not ${got.kind}`);
});

test(`direct to uWS, the same ${ACCEPTED}-byte head in one write is answered 200 (how nginx's one write over loopback passes)`, async (t) => {
  if (!hasNginx(t)) return;
  const { api } = await started();
  const head = requestHead({ path: '/healthz', headers: { Connection: 'close' }, size: ACCEPTED });
  const got = await rawRequest(api.port, [head]);
  assert.equal(got.kind === 'answer' && got.status, 200, `200, not ${got.kind}`);
});
