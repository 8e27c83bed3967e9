// Mailing a key's details: 503 mail_not_configured without SMTP_URL; through a local SMTP server, arriving without the secret.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mailerFromEnv } from '../../../transport/admin/key-mail.js';
import { localSmtp } from '../../helpers/local-smtp.js';
import { idOf, secretOf, startAdminServer } from './admin-server.js';

test('without SMTP_URL there is no mailer', () => {
  assert.equal(mailerFromEnv({}), null);
  assert.equal(mailerFromEnv({ SMTP_URL: '' }), null);
});

test('mail without a mail transport is 503 mail_not_configured, and the keys page is told', async (t) => {
  const s = await startAdminServer({ mailer: null });
  t.after(() => s.close());
  const op = await s.signIn();
  const id = idOf(s.keys.pro);
  await s.operator.setContact(id, 'desk@example.com');
  const a = await s.write(op, `/admin/api/keys/${id}/mail`);
  assert.equal(a.status, 503);
  assert.equal(a.body.code, 'mail_not_configured');
  assert.equal(a.headers['content-type'], 'application/problem+json');
  assert.equal((await s.call('/admin/api/keys', { cookie: op.cookie })).body.mail_configured, false);
});

test('with SMTP_URL, the details reach the contact through a real SMTP exchange, without the secret', async (t) => {
  const smtp = await localSmtp();
  t.after(() => smtp.close());
  const s = await startAdminServer({ mailer: mailerFromEnv({ SMTP_URL: smtp.url, MAIL_FROM: 'ops@service.example' }) });
  t.after(() => s.close());
  const op = await s.signIn();
  assert.equal(
    (await s.call('/admin/api/keys', { cookie: op.cookie })).body.mail_configured,
    true,
    'the keys page is told mail is configured',
  );
  const key = s.keys.enterprise;
  const id = idOf(key);
  await s.operator.setContact(id, 'desk@example.com');
  const a = await s.write(op, `/admin/api/keys/${id}/mail`);
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.sent_to, 'desk@example.com');
  assert.equal(smtp.received.length, 1);
  const [mail] = smtp.received;
  assert.deepEqual(mail.to, ['desk@example.com']);
  assert.equal(mail.from, 'ops@service.example');
  const body = mail.raw.replace(/=\r?\n/g, ''); // undo quoted-printable soft breaks
  assert.ok(body.includes(id), 'the key id is in the message');
  assert.match(body, /enterprise/);
  assert.match(body, /rotate/i);
  assert.ok(!mail.raw.includes(secretOf(key)) && !body.includes(secretOf(key)), 'the secret is not in the message');
  assert.ok(!body.includes(key), 'nor the whole key');
});

test('a key without a contact e-mail is 400 invalid_parameter (param contact) and nothing is sent', async (t) => {
  const smtp = await localSmtp();
  t.after(() => smtp.close());
  const s = await startAdminServer({ mailer: mailerFromEnv({ SMTP_URL: smtp.url }) });
  t.after(() => s.close());
  const op = await s.signIn();
  const a = await s.write(op, `/admin/api/keys/${idOf(s.keys.pro)}/mail`);
  assert.equal(a.status, 400);
  assert.equal(a.body.param, 'contact');
  assert.equal(smtp.received.length, 0);
});
