// The expected origin: ADMIN_ORIGIN when set (and then a Secure cookie for https), else http:// + Host.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkOrigin, ownOrigin } from '../../../transport/admin/csrf.js';
import type { AdminRequest } from '../../../transport/admin/exchange.js';
import type { AdminDeps } from '../../../transport/admin/ports.js';
import { adminRuntime } from '../../../transport/admin/runtime.js';

const req = (host: string, origin: string | null): AdminRequest => ({
  method: 'post',
  url: '/admin/api/reload',
  params: [],
  cookie: null,
  origin,
  host,
  csrf: null,
  contentType: '',
  ip: '127.0.0.1',
  requestId: 'test-1',
});
const code = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

test('without ADMIN_ORIGIN the own origin is http:// + Host, compared exactly', () => {
  assert.equal(ownOrigin(req('127.0.0.1:8080', null), null, false), 'http://127.0.0.1:8080');
  assert.equal(
    code(() => checkOrigin(req('127.0.0.1:8080', 'http://127.0.0.1:8080'), null, false)),
    null,
  );
  assert.equal(
    code(() => checkOrigin(req('127.0.0.1:8080', 'https://127.0.0.1:8080'), null, false)),
    'csrf_failed',
    'another scheme',
  );
  assert.equal(
    code(() => checkOrigin(req('127.0.0.1:8080', 'http://127.0.0.1:8080.evil.example'), null, false)),
    'csrf_failed',
  );
  assert.equal(
    code(() => checkOrigin(req('127.0.0.1:8080', 'null'), null, false)),
    'csrf_failed',
    'an opaque origin',
  );
  assert.equal(
    code(() => checkOrigin(req('', 'http://'), null, false)),
    'csrf_failed',
    'no Host',
  );
});

test('with ADMIN_ORIGIN only that origin passes, whatever the Host says', () => {
  assert.equal(
    code(() => checkOrigin(req('10.0.0.5:8080', 'https://ops.example'), 'https://ops.example', false)),
    null,
  );
  assert.equal(
    code(() => checkOrigin(req('evil.example', 'http://evil.example'), 'https://ops.example', false)),
    'csrf_failed',
  );
});

test('the cookie is Secure with an https ADMIN_ORIGIN or TLS, and not over plain http', () => {
  const cookie = (deps: Partial<AdminDeps>) => adminRuntime(deps as AdminDeps).cookie('abc');
  assert.match(cookie({ origin: 'https://ops.example' }), /; Secure$/);
  assert.match(cookie({ tls: true }), /; Secure$/);
  assert.doesNotMatch(cookie({ origin: 'http://127.0.0.1:8080' }), /Secure/);
  assert.equal(cookie({}), 'mdq_admin=abc; HttpOnly; SameSite=Strict; Path=/');
});
