// A stream's charges on a hand-moved clock (the server in process): rows pushed count against the
// daily quota; with none left one quota_exhausted per subscription and nothing more; when the quota
// day resets the next edition's messages come again, charged.

import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { startTestServer } from '../../helpers/api-server.js';
import { ManualClock } from '../../helpers/e2e.js';
import { fixtureCopy } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';
import { type Message, welcomed } from '../../helpers/stream-client.js';

/** Days appended, one edition each: 2025-03-17, -18, -19 of sh600001. */
const DAYS = ['17', '18', '19'].map((d) => `sh600001,2025-03-${d},6.30,6.50,6.28,6.45,50000,32000000.00,2.157024`);

test('no rows left: one quota_exhausted per subscription, then silence; the next quota day, the messages come again, charged', async (t) => {
  const clock = new ManualClock();
  const server = await startTestServer({ now: clock.now });
  const folders = await tempDir('mdq-stream-charges-');
  t.after(async () => {
    await server.close();
    await folders.cleanup();
  });
  /** Stores the fixture with the first `n` new days, opens it, swaps it in as the server does. */
  const publish = async (n: number): Promise<Dataset> => {
    const folder = await fixtureCopy(join(folders.path, `f${n}`));
    await appendFile(join(folder, 'ashare/klines.csv'), `${DAYS.slice(0, n).join('\n')}\n`);
    await storeEdition(folder, server.stateDir, { threads: 0 });
    const dataset = (await openCurrentDataset(server.stateDir))!;
    server.state.dataset = dataset;
    server.stream.published(dataset);
    return dataset;
  };
  const key = server.keys.free; // 5,000 rows a day
  const state = server.guard.authenticate(key)!;
  const used = (): number => server.guard.quota(state, clock.now()).used;
  server.guard.charge(state, 4998, clock.now()); // 2 rows left

  const c = await welcomed(server.port, { key });
  t.after(() => c.ws.terminate());
  c.send({ action: 'subscribe', channel: 'editions' });
  c.send({ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sh600001'] });
  c.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'top', query: { limit: 3 } });
  const first = await c.waitFor((m) => m.type === 'screen');
  assert.equal(first.data.length, 3);
  assert.equal(used(), 5001, 'the page started with rows left: charged whole (3), as a REST answer is');

  let from = c.messages.length;
  const d1 = await publish(1);
  await c.waitFor((m) => m.type === 'error' && m.request.channel === 'screen', 3000, from);
  const seen = (since: number): string[] =>
    c.messages.slice(since).map((m: Message) => (m.type === 'error' ? `${m.code}:${m.request.channel}` : m.type));
  assert.deepEqual(seen(from), ['edition', 'quota_exhausted:bars', 'quota_exhausted:screen']);
  assert.equal(used(), 5001, 'nothing charged');

  from = c.messages.length;
  await publish(2);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(seen(from), ['edition'], 'one error per subscription, not one per message');

  clock.advance(24 * 3600_000); // the next quota day
  from = c.messages.length;
  const d3 = await publish(3);
  const bars = await c.waitFor((m) => m.type === 'bars', 3000, from);
  const page = await c.waitFor((m) => m.type === 'screen', 3000, from);
  assert.deepEqual(Object.keys(bars.data), ['sh600001']);
  assert.equal(bars.data.sh600001.length, 1, 'the day this edition added');
  assert.equal(page.data_version, d3.version);
  assert.equal(used(), 1 + page.data.length, 'a fresh day: the bars row and the page charged');
  assert.notEqual(d1.version, d3.version);
  assert.equal(c.ws.readyState, c.ws.OPEN, 'the socket stayed open throughout');
});
