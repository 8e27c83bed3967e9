// Token bucket with an injected clock: burst, refill, exact Retry-After, a clock stepping back.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fillBucket,
  retryAfterSeconds,
  take,
  wholeTokens,
  type BucketState,
} from '../../../transport/guard/token-bucket.js';

function bucket(rpm: number, nowMs: number): BucketState {
  const b = { units: 0, lastMs: 0 };
  fillBucket(b, rpm, nowMs);
  return b;
}

function drain(b: BucketState, rpm: number, nowMs: number): number {
  let n = 0;
  while (take(b, rpm, nowMs)) n++;
  return n;
}

test('a new bucket serves exactly rpm requests at once, then refuses', () => {
  for (const rpm of [30, 120, 600]) {
    const b = bucket(rpm, 1_000);
    assert.equal(drain(b, rpm, 1_000), rpm, `rpm ${rpm}: burst equals capacity`);
    assert.equal(take(b, rpm, 1_000), false, `rpm ${rpm}: the next request is refused`);
  }
});

test('remaining whole tokens count down by one per request', () => {
  const b = bucket(30, 0);
  assert.equal(take(b, 30, 0), true);
  assert.equal(wholeTokens(b), 29, 'one token taken from 30');
});

test('refill is continuous at rpm/60 tokens a second and never exceeds capacity', () => {
  const b = bucket(30, 0);
  drain(b, 30, 0);
  assert.equal(take(b, 30, 1_999), false, '0.9995 token after 1.999 s at 0.5/s: still refused');
  assert.equal(take(b, 30, 2_000), true, 'one whole token after exactly 2 s');
  assert.equal(take(b, 30, 2_000), false, 'and only one');
  assert.equal(drain(b, 30, 2_000 + 3_600_000), 30, 'an hour later the bucket holds capacity, not more');
});

test('Retry-After is the exact wait for one token, rounded up to whole seconds', () => {
  const free = bucket(30, 0);
  drain(free, 30, 0);
  assert.equal(retryAfterSeconds(free, 30), 2, 'free: 2 s per token');
  take(free, 30, 1_001);
  assert.equal(retryAfterSeconds(free, 30), 1, 'free, 1.001 s later: 0.999 s left rounds up to 1');
  const odd = bucket(7, 0);
  drain(odd, 7, 0);
  assert.equal(retryAfterSeconds(odd, 7), 9, 'rpm 7: 8.571 s rounds up to 9');
  assert.equal(take(odd, 7, 8_571), false, 'one ms early is still refused');
  assert.equal(take(odd, 7, 8_572), true, 'served once the token is whole');
});

test('Retry-After is at least one second even when the token is milliseconds away', () => {
  const b = bucket(600, 0);
  drain(b, 600, 0);
  take(b, 600, 99);
  assert.equal(retryAfterSeconds(b, 600), 1, '1 ms left still answers 1');
});

test('a clock that steps back grants nothing, and time is not counted twice', () => {
  const b = bucket(60, 10_000);
  drain(b, 60, 10_000);
  assert.equal(take(b, 60, 5_000), false, 'stepping back 5 s grants no token');
  assert.equal(take(b, 60, 10_500), false, 'half a second past the old reading: half a token');
  assert.equal(take(b, 60, 11_000), true, 'one second past the old reading: one token');
});
