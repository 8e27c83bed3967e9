// BUSY_POLL_MS: the loop polls without sleeping for a while after a request, then sleeps again.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startTestServer } from '../../helpers/api-server.js';

/**
 * Event-loop utilisation over `ms`: the share of time the loop was not blocked waiting for
 * events. A spinning loop never waits (≈ 1) however busy the machine; an idle one ≈ 0.
 */
async function loopUtilisation(ms: number): Promise<number> {
  const start = performance.eventLoopUtilization();
  await sleep(ms);
  return performance.eventLoopUtilization(start).utilization;
}

test('with busy polling the server answers as usual, spins only within the window after a request, then idles', async (t) => {
  const server = await startTestServer({ busyPollMs: 300 });
  t.after(() => server.close());
  const res = await server.get('/api/v1/ashare/detail/sh600001?fields=close');
  assert.equal(res.status, 200);
  assert.equal(res.body.data.close, 6.3);
  const within = await loopUtilisation(200);
  assert.ok(within > 0.9, `the loop never waits within the window (utilisation ${within.toFixed(2)})`);
  await sleep(200); // the window ends
  const after = await loopUtilisation(500);
  assert.ok(after < 0.2, `the loop waits again after the window (utilisation ${after.toFixed(2)})`);
});
