// Opening a stored snapshot with prefault helpers: the pages are faulted in without a byte changed,
// whatever the helpers and the opener race for, and the columns equal those opened without helpers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSnapshotEnv } from '../../loaders/lmdb/from-lmdb.js';
import { versionDir } from '../../loaders/lmdb/layout.js';
import { CHUNK_BYTES, prefault, touchChunk } from '../../loaders/lmdb/prefault.js';
import { storeSnapshot } from '../../loaders/lmdb/snapshot-store.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived', import.meta.url));

/** A byte pattern no page starts with 0 in, so an overwrite by a helper would show. */
const patternAt = (buffer: number, i: number): number => ((buffer * 31 + i * 7) % 255) + 1;

test('touching a chunk leaves every byte as it was', () => {
  const buffer = new SharedArrayBuffer(3 * 4096 + 8);
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 3 === 0 ? 0 : patternAt(0, i);
  const before = Uint8Array.from(bytes);
  touchChunk(buffer, 0, buffer.byteLength);
  assert.deepEqual(bytes, before);
});

test('two helpers racing the opener over 40 chunks change no byte the opener wrote', async () => {
  const buffers = Array.from({ length: 10 }, () => new SharedArrayBuffer(4 * CHUNK_BYTES));
  const helpers = prefault(buffers, 2);
  buffers.forEach((buffer, b) => {
    helpers.reached(b);
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i++) bytes[i] = patternAt(b, i);
  });
  await helpers.done();
  buffers.forEach((buffer, b) => {
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i += 997) assert.equal(bytes[i], patternAt(b, i), `buffer ${b} byte ${i}`);
    for (let page = 0; page < bytes.length; page += 4096) assert.equal(bytes[page], patternAt(b, page), `buffer ${b} page start ${page}`);
  });
});

test('the stored fixture opens to the same columns with two helpers as with none', async (t) => {
  const state = await tempDir('mdq-prefault-');
  t.after(state.cleanup);
  const { version } = await storeSnapshot(FIXTURE, state.path);
  const [alone, helped] = [await readSnapshotEnv(versionDir(state.path, version), 0), await readSnapshotEnv(versionDir(state.path, version), 2)];
  assert.deepEqual(helped, alone);
  assert.ok(alone.markets.some((m) => m.klines.close.length > 0), 'the fixture has rows');
});
