// Checks one raw request's outcome against the corpus's expectation (test/helpers/bad-requests.ts).

import assert from 'node:assert/strict';
import type { Expected } from './bad-requests.js';
import type { RawOutcome } from './raw-request.js';

/** A prompt answer or close comes within this; uWS's idle close takes 10-16 s. */
const PROMPT_MS = 1_000;

export function assertOutcome(name: string, got: RawOutcome, expected: Expected): void {
  const seen = got.kind === 'answer' ? `${got.status} ${got.body.slice(0, 120)}` : got.kind;
  const what = `${name}: expected ${JSON.stringify(expected)}, got ${seen} after ${got.ms.toFixed(0)} ms`;
  if (expected === 'closed') {
    assert.equal(got.kind, 'closed', what);
    assert.ok(got.ms < PROMPT_MS, what);
  } else if (expected === 'idle-close') {
    assert.equal(got.kind, 'closed', what);
    assert.ok(got.ms > 5_000 && got.ms < 17_000, `${what}: closed by the idle timeout`);
  } else if (expected === 'http-0.9') {
    assert.equal(got.kind, 'partial', what);
    assert.ok(got.ms < PROMPT_MS, what);
  } else {
    assert.equal(got.kind, 'answer', what);
    if (got.kind !== 'answer') return;
    assert.equal(got.status, expected.status, what);
    if (expected.status === 502) return; // nginx's own page, after the instance's idle close
    assert.ok(got.ms < PROMPT_MS, what);
    if (expected.code !== undefined) {
      assert.equal(got.headers['content-type'], 'application/problem+json', what);
      const body = JSON.parse(got.body) as { code: string; status: number; instance: string };
      assert.equal(body.code, expected.code, what);
      assert.equal(body.status, expected.status, what);
      assert.equal(body.instance, got.headers['x-request-id'], `${what}: instance is the X-Request-Id`);
    }
    assert.equal(
      got.headers.connection === 'close',
      expected.close === true,
      `${what}: Connection: close ${expected.close === true ? 'expected' : 'not expected'}`,
    );
  }
}
