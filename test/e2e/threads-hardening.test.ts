// A server with two serving threads (THREADS=2) against requests an attacker or a careless client
// sends to the paths the main thread answers for both (the dashboard, /admin, /metrics): text
// above U+00FF, control bytes, HEAD, bodies, pipelining. Each is sent on many connections, so both
// threads answer it; each must get the same answer from both, and the process must never end.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIXTURE, httpRequest } from '../helpers/api-server.js';
import { assertOutcome } from '../helpers/bad-request-outcome.js';
import { API_INPUT, FRAMING } from '../helpers/bad-requests.js';
import { pipelined, rawRequest, type RawOutcome } from '../helpers/raw-request.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** Connections per case: the kernel spreads them over the two threads (SO_REUSEPORT). */
const CONNECTIONS = 12;
const ORIGIN = 'https://desk.example';
const head = (method: string, target: string, fields = '', body = ''): string =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${fields}${body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`}\r\n${body}`;
const signIn = (origin: string, body = '{"password":"not it"}'): string =>
  head('POST', '/admin/api/sign-in', `Origin: ${origin}\r\nContent-Type: application/json\r\n`, body);

/** Forwarded-path cases and what every thread answers: a status and, for problems, a code. */
const CASES: { name: string; text: string; want: string }[] = [
  { name: '/metrics with a query holding 中', text: head('GET', '/metrics?x=中'), want: '200' },
  { name: '/metrics with é in the path', text: head('GET', '/metrics/é'), want: '404 not_found' },
  { name: 'a dashboard file named 中', text: head('GET', '/dashboard/中'), want: '404 not_found' },
  {
    name: 'an /admin/api path and query in UTF-8',
    text: head('GET', '/admin/api/中?é=ü&x=%E4%B8%AD'),
    want: '404 not_found',
  },
  {
    name: 'a DEL byte in a field (dashboard)',
    text: head('GET', '/dashboard/', 'X-Foo: a\x7fb\r\n'),
    want: '400 malformed_request',
  },
  {
    name: 'a DEL byte in a field (/metrics)',
    text: head('GET', '/metrics', 'X-Foo: a\x7fb\r\n'),
    want: '400 malformed_request',
  },
  {
    name: 'a DEL byte in a dashboard cookie',
    text: head('GET', '/admin/api/session', 'Cookie: mdq_admin=a\x7f\r\n'),
    want: '400 malformed_request',
  },
  { name: 'UTF-8 text in a field', text: head('GET', '/dashboard/', 'X-Foo: 中文 ü\r\n'), want: '200' },
  { name: 'bytes that are not UTF-8 in a field', text: head('GET', '/metrics', 'X-Foo: \xff\xfe\r\n'), want: '200' },
  { name: 'OPTIONS /metrics', text: head('OPTIONS', '/metrics'), want: '204' },
  {
    name: 'DELETE under /admin/api',
    text: head('DELETE', '/admin/api/keys/x', 'Content-Length: 0\r\n'),
    want: '404 not_found',
  },
  { name: 'PUT with a body under /admin', text: head('PUT', '/admin/api/x', '', 'ab'), want: '404 not_found' },
  { name: 'a sign-in from another origin', text: signIn('https://evil.example'), want: '403 csrf_failed' },
  {
    name: 'a sign-in body in UTF-8 that is not JSON',
    text: signIn('http://127.0.0.1', '中文'),
    want: '400 invalid_parameter',
  },
  {
    name: 'a 20 KB body on a dashboard write without a session',
    text: head('POST', '/admin/api/keys', 'Content-Type: application/json\r\n', 'x'.repeat(20_000)),
    want: '403 csrf_failed',
  },
  { name: 'two Host fields on /metrics', text: head('GET', '/metrics', 'Host: b\r\n'), want: '400 malformed_request' },
];

const outcomeOf = (o: RawOutcome): string => {
  if (o.kind !== 'answer') return o.kind;
  const code = /"code":"(\w+)"/.exec(o.body)?.[1];
  return code === undefined ? String(o.status) : `${o.status} ${code}`;
};

describe('THREADS=2: the forwarded paths under hostile input', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: ServerProcess;
  let sent = 0;

  before(async () => {
    dir = await tempDir('mdq-threads-hardening-');
    server = await startServerProcess({
      snapshot: FIXTURE,
      state: dir.path,
      env: { THREADS: '2', CORS_ORIGINS: ORIGIN },
    });
  });
  after(async () => {
    await server?.kill();
    await dir?.cleanup();
  });

  test('each case gets the same answer on every connection (both threads), and the process lives on', async () => {
    for (const c of CASES) {
      const outcomes = await Promise.all(
        Array.from({ length: CONNECTIONS }, () =>
          rawRequest(server.port, [Buffer.from(c.text, 'utf8')], { timeoutMs: 5000 }),
        ),
      );
      sent += CONNECTIONS;
      assert.deepEqual([...new Set(outcomes.map(outcomeOf))], [c.want], c.name);
    }
    // A HEAD answer has no body to delimit it on a raw socket: node:http reads those.
    for (const path of ['/metrics', '/dashboard', '/dashboard/app.js', '/admin/api/session']) {
      const statuses = await Promise.all(
        Array.from({ length: CONNECTIONS }, () =>
          httpRequest(server.port, path, { method: 'HEAD' }).then((r) => r.status),
        ),
      );
      sent += CONNECTIONS;
      assert.deepEqual([...new Set(statuses)], [405], `HEAD ${path}`);
    }
    // The text the first report ended the process with: ten times in a row.
    for (let i = 0; i < 10; i++, sent++)
      assert.equal((await httpRequest(server.port, '/metrics?x=%E4%B8%AD')).status, 200);
    assert.equal((await httpRequest(server.port, '/readyz')).status, 200, 'still serving');
    assert.equal(
      server.log.some((l) => /"level":60|serving thread \d failed/.test(l)),
      false,
      'no thread failed',
    );
    console.log(`# ${sent} hostile requests on the forwarded paths, THREADS=2: the process still serves`);
  });

  test('the HTTP bad-input corpus gets the answers it gets with one thread, on either thread', async () => {
    const cases = [...FRAMING, ...API_INPUT];
    // Every case at once, twice (the idle closes take ~12 s each): the kernel hands the connections to both threads.
    const outcomes = await Promise.all(
      [...cases, ...cases].map((c) =>
        rawRequest(server.port, [Buffer.from(c.text.replace('{key}', server.keys.internal!), 'latin1')], {
          timeoutMs: 20_000,
        }),
      ),
    );
    sent += outcomes.length;
    outcomes.forEach((o, i) => assertOutcome(cases[i % cases.length].name, o, cases[i % cases.length].direct));
    assert.equal((await httpRequest(server.port, '/readyz')).status, 200, 'still serving');
  });

  test('pipelined with forwarded paths: every answer comes, in order, on both threads; the key is charged the rows it was answered', async () => {
    const key = server.keys.internal!; // never rate-limited: the test sends more than a minute's worth
    const api = (path: string): string => head('GET', path, `X-API-Key: ${key}\r\n`);
    const markets = api('/api/v1/markets');
    const klines = api('/api/v1/ashare/klines/sh600001?limit=5');
    const combos: { requests: string[]; statuses: number[] }[] = [
      { requests: [klines, head('GET', '/metrics')], statuses: [200, 200] },
      { requests: [markets, head('GET', '/metrics'), markets], statuses: [200, 200, 200] },
      { requests: [head('GET', '/metrics'), markets], statuses: [200, 200] },
      { requests: [markets, head('GET', '/dashboard/'), klines], statuses: [200, 200, 200] },
      { requests: [markets, head('GET', '/admin/api/session'), markets], statuses: [200, 401, 200] },
      {
        requests: [klines, head('GET', '/dashboard/nope'), head('GET', '/metrics'), markets],
        statuses: [200, 404, 200, 200],
      },
    ];
    const usedBefore = (await httpRequest(server.port, '/api/v1/quota', { headers: { 'x-api-key': key } })).body
      .used as number;
    let rows = 0;
    for (const combo of combos) {
      for (let i = 0; i < CONNECTIONS; i++) {
        const got = await pipelined(server.port, combo.requests);
        assert.deepEqual(
          got.answers.map((a) => a.status),
          combo.statuses,
          `every answer, in order (connection ${i})`,
        );
        for (const a of got.answers)
          if (a.body.startsWith('{"market"') || a.body.startsWith('{"count"')) rows += JSON.parse(a.body).count;
      }
    }
    const usedAfter = (await httpRequest(server.port, '/api/v1/quota', { headers: { 'x-api-key': key } })).body
      .used as number;
    assert.equal(usedAfter - usedBefore, rows, 'the rows charged are the rows answered');
  });

  test("a sign-in, whose password check outlasts the serving thread's wait, is answered when it comes, on either thread", async () => {
    const password = /operator password .*: (\S+)$/.exec(server.log.find((l) => l.includes('operator password'))!)![1];
    for (let i = 0; i < 8; i++) {
      const body = JSON.stringify({ password });
      const r = await httpRequest(server.port, '/admin/api/sign-in', {
        method: 'POST',
        headers: {
          origin: `http://127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
        body,
      });
      assert.equal(r.status, 200, r.text);
      assert.match(String(r.headers['set-cookie']), /^mdq_admin=/);
    }
  });

  test('no answer carries a uWebSockets field; dashboard answers carry X-Request-Id, echoed from either thread', async () => {
    for (let i = 0; i < CONNECTIONS; i++) {
      for (const path of ['/dashboard/', '/admin/api/session', '/metrics', '/api/v1/markets', '/healthz']) {
        const r = await httpRequest(server.port, path, { headers: { 'x-request-id': `probe-${i}` } });
        assert.equal(r.headers.uwebsockets, undefined, `${path}: no uWebSockets field`);
        assert.equal(r.headers['x-request-id'], `probe-${i}`, `${path}: the request id echoed`);
        assert.equal(typeof r.headers.date, 'string', `${path}: one Date`);
      }
      const fresh = await httpRequest(server.port, '/dashboard/app.js');
      assert.match(
        String(fresh.headers['x-request-id']),
        /^[0-9a-f]{12}-[0-9a-z]+$/,
        'an id of its own when the client sent none',
      );
    }
  });

  test('a 401 names the scheme it takes (WWW-Authenticate: Bearer); with a CORS_ORIGINS list, error answers vary by Origin', async () => {
    const unauthorized = await httpRequest(server.port, '/api/v1/markets', { headers: { origin: ORIGIN } });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers['www-authenticate'], 'Bearer realm="mdq"');
    const key = server.keys.internal!;
    for (const [path, status] of [
      ['/api/v1/markets', 401],
      ['/api/v1/ashare/klines/sh600001?limit=x', 400],
      ['/api/v1/ashare/klines/nope', 404],
      ['/api/v1/nowhere', 404],
    ] as const) {
      for (const origin of [ORIGIN, 'https://other.example']) {
        const r = await httpRequest(server.port, path, {
          headers: { origin, ...(status === 401 ? {} : { 'x-api-key': key }) },
        });
        assert.equal(r.status, status, path);
        assert.equal(r.headers.vary, 'Origin', `${path} from ${origin}: Vary: Origin`);
        assert.equal(r.headers['access-control-allow-origin'], origin === ORIGIN ? ORIGIN : undefined);
      }
    }
    const ok = await httpRequest(server.port, '/api/v1/markets', { headers: { origin: ORIGIN, 'x-api-key': key } });
    assert.equal(ok.headers.vary, 'Accept, Accept-Encoding, Origin', 'a 200 says it once, with the rest');
  });
});
