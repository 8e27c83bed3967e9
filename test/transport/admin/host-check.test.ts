// The dashboard's Host check against DNS rebinding: the rule itself, then every kind of dashboard request on a real server.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hostCheck } from '../../../transport/admin/host-check.js';
import { rawRequest, requestHead } from '../../helpers/raw-request.js';
import {
  type AdminServer,
  type Answer,
  type Operator,
  PASSWORD,
  startAdminServer,
  startSignedIn,
} from './admin-server.js';

const passes = (configured: string | null, host: string): boolean => hostCheck(configured)(host) === null;

describe('the rule', () => {
  test('without ADMIN_ORIGIN, IP literals and localhost pass, with or without a port', () => {
    for (const host of [
      '127.0.0.1',
      '127.0.0.1:8080',
      '10.0.0.5:80',
      '0.0.0.0:1',
      'localhost',
      'localhost:8080',
      'LocalHost:8080',
      '[::1]',
      '[::1]:8080',
      '[fe80::1]:8080',
      '[::ffff:127.0.0.1]:8080',
    ]) {
      assert.equal(passes(null, host), true, `${host} passes`);
    }
  });

  test('without ADMIN_ORIGIN, any other name is refused with 403 forbidden_host', () => {
    for (const host of [
      'evil.example:8080',
      'evil.example',
      'localhost.evil.example',
      'localhost.',
      'sub.localhost',
      '127.0.0.1.nip.io:8080',
      '127.0.0.1.evil.example',
    ]) {
      const problem = hostCheck(null)(host);
      assert.equal(problem?.code, 'forbidden_host', `${host} is refused`);
      assert.equal(problem?.status, 403);
    }
  });

  test('without ADMIN_ORIGIN, malformed literals and ports are refused', () => {
    for (const host of [
      '',
      '256.0.0.1',
      '127.0.0.01',
      '127.1',
      '::1',
      '[::1',
      '[evil.example]',
      '[::1]x',
      '127.0.0.1:',
      '127.0.0.1:80x',
      'localhost:123456',
      '127.0.0.1:80:80',
      ' 127.0.0.1',
      'user@127.0.0.1',
    ]) {
      assert.equal(passes(null, host), false, `${JSON.stringify(host)} is refused`);
    }
  });

  test("with ADMIN_ORIGIN only its host passes, the scheme's default port optional, case-insensitively", () => {
    const ops = 'https://ops.example';
    for (const host of ['ops.example', 'ops.example:443', 'OPS.Example', 'Ops.Example:443'])
      assert.equal(passes(ops, host), true, `${host} passes`);
    for (const host of [
      '',
      'ops.example:80',
      'ops.example:8443',
      'evil.example',
      'ops.example.evil.example',
      '127.0.0.1:8080',
      'localhost',
    ]) {
      assert.equal(passes(ops, host), false, `${JSON.stringify(host)} is refused`);
    }
    assert.equal(passes('http://ops.example', 'ops.example:80'), true, 'http: 80 is the default');
    assert.equal(passes('http://ops.example', 'ops.example:443'), false);
  });

  test('with ADMIN_ORIGIN on another port, that port must be named', () => {
    assert.equal(passes('https://ops.example:8443', 'ops.example:8443'), true);
    assert.equal(passes('https://ops.example:8443', 'ops.example'), false);
    assert.equal(passes('https://ops.example:8443', 'ops.example:443'), false);
    assert.equal(passes('http://[::1]:8080', '[::1]:8080'), true, 'an IPv6 origin');
  });

  test("a refusal's detail tells the operator to set ADMIN_ORIGIN", () => {
    assert.match(hostCheck(null)('evil.example')!.detail, /ADMIN_ORIGIN/);
    assert.match(hostCheck('https://ops.example')('evil.example')!.detail, /ADMIN_ORIGIN/);
    assert.match(hostCheck(null)('')!.detail, /ADMIN_ORIGIN/);
  });
});

const forbidden = (a: Answer, what: string): void => {
  assert.equal(a.status, 403, `${what}: ${a.text}`);
  assert.equal(a.body?.code, 'forbidden_host', what);
  assert.equal(a.headers['content-type'], 'application/problem+json', what);
};

describe('without ADMIN_ORIGIN, on a started server', () => {
  let s: AdminServer;
  let op: Operator;
  before(async () => ({ s, op } = await startSignedIn()));
  after(() => s.close());

  test('a rebinding page (Host and Origin evil.example:8080) is refused on sign-in, opening no session', async () => {
    const evil = 'evil.example:8080';
    const a = await s.call('/admin/api/sign-in', {
      body: { password: PASSWORD },
      origin: `http://${evil}`,
      headers: { host: evil },
    });
    forbidden(a, 'sign-in');
    assert.equal(a.headers['set-cookie'], undefined);
  });

  test('a rebinding page is refused on a read (even with a session cookie), a write, the page, an asset and an unknown route', async () => {
    const headers = { host: 'evil.example:8080' };
    const origin = 'http://evil.example:8080';
    forbidden(await s.call('/admin/api/data', { cookie: op.cookie, origin, headers }), 'a read');
    forbidden(
      await s.call('/admin/api/reload', {
        method: 'POST',
        cookie: op.cookie,
        csrf: op.csrf,
        body: {},
        origin,
        headers,
      }),
      'a write',
    );
    forbidden(await s.call('/dashboard', { origin: null, headers }), 'the page');
    forbidden(await s.call('/dashboard/app.js', { origin: null, headers }), 'an asset');
    forbidden(await s.call('/admin/api/nothing-here', { origin: null, headers }), 'an unknown route');
  });

  test('127.0.0.1, localhost and [::1] with the port pass: the page answers 200', async () => {
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `[::1]:${s.port}`]) {
      const a = await s.call('/dashboard', { origin: null, headers: { host } });
      assert.equal(a.status, 200, `${host}: ${a.text}`);
      assert.match(a.text, /<html/);
    }
  });

  test('at localhost, sign-in with its own Origin opens a session', async () => {
    const host = `localhost:${s.port}`;
    const a = await s.call('/admin/api/sign-in', {
      body: { password: PASSWORD },
      origin: `http://${host}`,
      headers: { host },
    });
    assert.equal(a.status, 200, a.text);
    assert.match(String(a.headers['set-cookie']), /^mdq_admin=/);
  });

  test('an empty Host field is refused on the page and on sign-in', async () => {
    const page = await rawRequest(s.port, [requestHead({ path: '/dashboard', host: '' })]);
    assert.equal(page.kind === 'answer' && page.status, 403, 'the page');
    assert.equal(page.kind === 'answer' && JSON.parse(page.body).code, 'forbidden_host');
    const body = JSON.stringify({ password: PASSWORD });
    const head = `POST /admin/api/sign-in HTTP/1.1\r\nHost: \r\nOrigin: http://\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const signIn = await rawRequest(s.port, [Buffer.from(head + body)]);
    assert.equal(signIn.kind === 'answer' && signIn.status, 403, 'sign-in');
    assert.equal(signIn.kind === 'answer' && signIn.headers['set-cookie'], undefined);
  });

  test('a sign-in with two Content-Length fields, or two Host fields, is a 400 malformed_request and the connection closed, before the password is read', async () => {
    const body = JSON.stringify({ password: PASSWORD });
    const heads = [
      `POST /admin/api/sign-in HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nOrigin: ${s.origin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: 2\r\n\r\n`,
      `POST /admin/api/sign-in HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nHost: evil.example\r\nOrigin: ${s.origin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    ];
    for (const head of heads) {
      const got = await rawRequest(s.port, [Buffer.from(head + body)]);
      assert.equal(got.kind === 'answer' && got.status, 400);
      assert.equal(got.kind === 'answer' && JSON.parse(got.body).code, 'malformed_request');
      assert.equal(got.kind === 'answer' && got.headers.connection, 'close');
      assert.equal(got.kind === 'answer' && got.headers['set-cookie'], undefined, 'no session opened');
    }
  });

  test('no Host field at all gets no page (uWS hands such a request to no handler)', async () => {
    const outcome = await rawRequest(s.port, [requestHead({ path: '/dashboard', host: null })], { timeoutMs: 300 });
    assert.notEqual(outcome.kind === 'answer' && outcome.status, 200);
  });

  test('the API is not affected: /healthz answers under any Host', async () => {
    const a = await s.call('/healthz', { origin: null, headers: { host: 'evil.example:8080' } });
    assert.equal(a.status, 200, a.text);
  });
});

describe('with ADMIN_ORIGIN=https://ops.example, on a started server', () => {
  let s: AdminServer;
  before(async () => (s = await startAdminServer({ adminOrigin: 'https://ops.example' })));
  after(() => s.close());

  test('Host ops.example and ops.example:443 pass: the page answers 200 and sign-in opens a session', async () => {
    for (const host of ['ops.example', 'ops.example:443', 'OPS.example']) {
      assert.equal((await s.call('/dashboard', { origin: null, headers: { host } })).status, 200, host);
    }
    const a = await s.call('/admin/api/sign-in', {
      body: { password: PASSWORD },
      origin: 'https://ops.example',
      headers: { host: 'ops.example' },
    });
    assert.equal(a.status, 200, a.text);
  });

  test('any other Host is refused, the address it listens on included', async () => {
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, 'ops.example:8443', 'evil.example:8080', '']) {
      forbidden(await s.call('/dashboard', { origin: null, headers: { host } }), `page at ${JSON.stringify(host)}`);
    }
    forbidden(
      await s.call('/admin/api/sign-in', {
        body: { password: PASSWORD },
        origin: 'https://ops.example',
        headers: { host: 'evil.example' },
      }),
      'sign-in',
    );
  });
});
