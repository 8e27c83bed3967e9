// BUSY_POLL_MS: the loop polls without sleeping for a while after a request, then sleeps again.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startTestServer } from '../../helpers/api-server.js';

/** Share of one core this process used over `ms` of otherwise idle time. */
async function cpuShare(ms: number): Promise<number> {
  const start = process.cpuUsage();
  const t0 = performance.now();
  await sleep(ms);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / (performance.now() - t0);
}

test('with busy polling the server answers as usual, spins only within the window after a request, then idles', async (t) => {
  const server = await startTestServer({ busyPollMs: 300 });
  t.after(() => server.close());
  const res = await server.get('/api/v1/ashare/detail/sh600001?fields=close');
  assert.equal(res.status, 200);
  assert.equal(res.body.data.close, 6.3);
  // Within the window the loop never sleeps: a whole core (the bound is loose for a shared machine).
  assert.ok((await cpuShare(200)) > 0.5, 'spinning within the window');
  await sleep(200); // the window ends
  assert.ok((await cpuShare(500)) < 0.25, 'idle after the window');
});
