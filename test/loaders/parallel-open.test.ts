// Opening a stored snapshot on several threads (helpers take columns from a shared counter) gives
// exactly the columns one thread gives.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSnapshotEnv } from '../../loaders/lmdb/from-lmdb.js';
import { versionDir } from '../../loaders/lmdb/layout.js';
import { storeSnapshot } from '../../loaders/lmdb/snapshot-store.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived', import.meta.url));

test('the stored fixture opens to the same columns with 1 and 3 helper threads (with this thread copying too, or not) as with none', async (t) => {
  const state = await tempDir('mdq-open-');
  t.after(state.cleanup);
  const { version } = await storeSnapshot(FIXTURE, state.path);
  const dir = versionDir(state.path, version);
  const alone = await readSnapshotEnv(dir, 0);
  assert.ok(alone.markets.filter((m) => m.klines.close.length > 0).length >= 3, 'the fixture has rows in several markets');
  for (const threads of [1, 3]) {
    assert.deepEqual(await readSnapshotEnv(dir, threads), alone, `${threads} helpers beside this thread`);
    assert.deepEqual(await readSnapshotEnv(dir, threads, { callerCopies: false }), alone, `${threads} helpers alone`);
  }
});
