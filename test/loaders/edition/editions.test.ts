// The edition lifecycle's order: every peer takes a new edition before this thread does, and the one
// before is closed only once this thread's requests and every peer are done with it; editions
// beyond KEEP_EDITIONS are deleted then, never one still read.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { type EditionPeers, Editions } from '../../../loaders/edition/editions.js';
import { editionDir } from '../../../loaders/edition/layout.js';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let root = '';
let cleanup: () => Promise<void> = async () => {};
before(async () => ({ path: root, cleanup } = await tempDir('mdq-editions-')));
after(() => cleanup());

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test('publish: peers first, then this thread; the edition before closes only after this thread and every peer released it, then KEEP_EDITIONS prunes', async () => {
  const state = join(root, 'state');
  const a = await fixtureCopy(join(root, 'a'));
  const b = await fixtureCopy(join(root, 'b'), [{ file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 }]);
  const events: string[] = [];
  const editions = new Editions({ stateDir: state, keep: 1, log: () => {}, storeThreads: 0 });
  let served: Dataset | null = null;
  const hereReleased = gate();
  const peersReleased = gate();
  const host = {
    swap: (d: Dataset) => void ((served = d), events.push(`swap ${d.version}`)),
    released: (d: Dataset) => (events.push(`asked here ${d.version}`), hereReleased.promise),
  };
  const live: string[][] = [];
  const peers: EditionPeers = {
    publish: async (v) => void events.push(`peers ${v}`),
    released: (v) => (events.push(`asked peers ${v}`), peersReleased.promise),
    setLive: (keys) => void live.push(keys.map((k) => k.split('\n')[1])),
  };

  const first = (await editions.prepare(a)).next!;
  await editions.publish(first, host);
  editions.attach(peers);
  assert.equal(served, first.dataset);
  const closes: string[] = [];
  const realClose = first.close;
  (first as { close: () => Promise<void> }).close = () => (closes.push(first.meta.version), realClose());

  const second = (await editions.prepare(b)).next!;
  await editions.publish(second, host);
  assert.deepEqual(
    events.slice(1, 3),
    [`peers ${second.meta.version}`, `swap ${second.meta.version}`],
    'the peers take it before this thread does',
  );
  assert.equal(served, second.dataset);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(closes, [], 'not closed while this thread and the peers may still read it');
  assert.ok(existsSync(editionDir(state, first.meta.version)), 'nor deleted');
  assert.deepEqual(
    live.at(-1)!.sort(),
    [first.meta.version, second.meta.version].sort(),
    'both live while the first is read',
  );

  hereReleased.open();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(closes, [], 'the peers still read it');
  peersReleased.open();
  for (let i = 0; i < 50 && closes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(closes, [first.meta.version], 'closed once both released it');
  for (let i = 0; i < 50 && existsSync(editionDir(state, first.meta.version)); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(existsSync(editionDir(state, first.meta.version)), false, 'then deleted (KEEP_EDITIONS=1)');
  assert.ok(existsSync(editionDir(state, second.meta.version)));
  assert.deepEqual(live.at(-1), [second.meta.version], 'the pool may let go of the first');
  await second.close();
});

test('prepare: an unchanged folder opens nothing; the stored edition opens when nothing is served yet', async () => {
  const state = join(root, 'prepare');
  const a = await fixtureCopy(join(root, 'prepare-a'));
  const editions = new Editions({ stateDir: state, keep: 2, log: () => {}, storeThreads: 0 });
  const first = await editions.prepare(a);
  assert.equal(first.store!.parsed.length, 3);
  await editions.publish(first.next!, { swap: () => {}, released: () => Promise.resolve() });
  const again = await editions.prepare(a);
  const unchanged = again.store!;
  assert.deepEqual([unchanged.unchanged, unchanged.skippedRead, again.next], [true, true, null]);
  const fresh = new Editions({ stateDir: state, keep: 2, log: () => {} });
  const reopened = await fresh.prepare(null);
  assert.equal(
    reopened.next!.meta.version,
    first.next!.meta.version,
    'a start without a folder opens the stored edition',
  );
  await reopened.next!.close();
  await first.next!.close();
});
