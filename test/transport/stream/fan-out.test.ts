// Fan-out in one server: sockets on the same standing screen (under several names, in both formats)
// make one screen run per edition, and each gets the same page; a screen nobody stands on any more
// is not run again.

import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import type { Market } from '../../../engine/markets.js';
import type { ScreenQuery } from '../../../engine/queries/screen.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { INLINE_SCREENS, type ScreenRunner } from '../../../transport/stream/screen-runner.js';
import { startTestServer } from '../../helpers/api-server.js';
import { fixtureCopy } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';
import { type StreamClient, welcomed } from '../../helpers/stream-client.js';

test('20 sockets on one screen (two names, two formats): one run at subscribe, one per edition; every socket the same page', async (t) => {
  const runs: string[] = [];
  const counting: ScreenRunner = {
    run: (dataset: Dataset, market: Market, q: ScreenQuery) => {
      runs.push(`${dataset.version} ${market} ${q.limit}`);
      return INLINE_SCREENS.run(dataset, market, q);
    },
    release: INLINE_SCREENS.release,
  };
  const server = await startTestServer({ streamScreens: counting });
  const folders = await tempDir('mdq-fan-out-');
  const sockets: StreamClient[] = [];
  t.after(async () => {
    for (const s of sockets) s.ws.terminate();
    await server.close();
    await folders.cleanup();
  });
  for (let i = 0; i < 20; i++) {
    const s = await welcomed(server.port, { key: server.keys.internal, format: i % 2 === 0 ? undefined : 'msgpack' });
    sockets.push(s);
    s.send({
      action: 'subscribe',
      channel: 'screen',
      market: 'ashare',
      id: i % 4 < 2 ? 'a' : 'b',
      query: { limit: 4 },
    });
    await s.waitFor((m) => m.type === 'screen');
  }
  assert.equal(runs.length, 1, runs.join('\n'));
  const leaver = await welcomed(server.port, { key: server.keys.internal });
  leaver.send({ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'gone', query: { limit: 7 } });
  leaver.send({ action: 'unsubscribe', channel: 'screen', id: 'gone' });
  await leaver.waitFor((m) => m.type === 'unsubscribed');
  leaver.close();

  const folder = await fixtureCopy(join(folders.path, 'B'));
  await appendFile(join(folder, 'ashare/klines.csv'), 'sz000005,2025-03-17,5.30,6.00,5.29,6.00,9000,5200000.00,\n');
  await storeEdition(folder, server.stateDir, { threads: 0 });
  const next = (await openCurrentDataset(server.stateDir))!;
  server.state.dataset = next;
  server.stream.published(next);
  const pages = await Promise.all(
    sockets.map((s) => s.waitFor((m) => m.type === 'screen' && m.data_version === next.version)),
  );
  assert.deepEqual(
    runs.filter((r) => r.startsWith(next.version)),
    [`${next.version} ashare 4`],
    'one run for the edition, none for the screen nobody stands on',
  );
  for (const [i, page] of pages.entries()) {
    assert.equal(page.id, i % 4 < 2 ? 'a' : 'b');
    assert.deepEqual({ ...page, id: 'a' }, { ...pages[0], id: 'a' }, `socket ${i}`);
  }
});
