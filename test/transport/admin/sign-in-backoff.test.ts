// The sign-in backoff alone: per-address doubling, one check at a time, a global brake, forgetting.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignInBackoff } from '../../../transport/admin/sign-in-backoff.js';

const T = 1_000_000;

test('a parallel attempt from the same address waits while its check runs', () => {
  const b = new SignInBackoff();
  assert.equal(b.admit('a', T), 0);
  assert.ok(b.admit('a', T) > 0, 'the second guess waits for the first');
  assert.equal(b.admit('b', T), 0, 'another address is not held up');
  b.failed('a', T);
  b.succeeded('b', T);
});

test('at most two checks run at once (scrypt takes 32 MiB each)', () => {
  const b = new SignInBackoff();
  assert.equal(b.admit('a', T), 0);
  assert.equal(b.admit('b', T), 0);
  assert.ok(b.admit('c', T) > 0);
  b.abandon('a', T);
  assert.equal(b.admit('c', T), 0, 'a finished check frees its slot');
});

test('after 20 failures from many addresses, every address waits (global brake, at most 10 s)', () => {
  const b = new SignInBackoff();
  for (let i = 0; i < 21; i++) {
    assert.equal(b.admit(`10.0.0.${i}`, T), 0, `address ${i} is admitted`);
    b.failed(`10.0.0.${i}`, T);
  }
  const wait = b.admit('192.0.2.1', T);
  assert.ok(wait > 0 && wait <= 10_000, `a fresh address waits ${wait} ms`);
});

test('a success clears the address and the global count', () => {
  const b = new SignInBackoff();
  assert.equal(b.admit('a', T), 0);
  b.failed('a', T);
  assert.equal(b.admit('a', T + 1000), 0);
  b.succeeded('a', T + 1000);
  assert.equal(b.admit('a', T + 1000), 0, 'no lockout after a success');
});

test('failures are forgotten after 15 quiet minutes: the lockout starts again at 1 s', () => {
  const b = new SignInBackoff();
  let t = T;
  for (let i = 0; i < 5; i++) {
    assert.equal(b.admit('a', t), 0);
    b.failed('a', t);
    t += 60_000;
  }
  t += 15 * 60_000;
  assert.equal(b.admit('a', t), 0);
  b.failed('a', t);
  assert.equal(b.admit('a', t), 1000);
});
