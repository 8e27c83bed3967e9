// A Dataset posted to another thread: the same column memory on both sides, the same answers,
// and a column that would be copied refused.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { datasetFromMessage, datasetMessage, NotShared } from '../../engine/dataset/dataset-message.js';
import { storeSnapshot } from '../../loaders/lmdb/snapshot-store.js';
import { openCurrentDataset } from '../../loaders/open-dataset.js';
import { FIXTURE } from '../helpers/api-server.js';
import { tempDir } from '../helpers/snapshot-folder.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let dataset: Dataset;
before(async () => {
  dir = await tempDir('mdq-message-');
  await storeSnapshot(FIXTURE, dir.path, { threads: 0 });
  dataset = (await openCurrentDataset(dir.path))!;
});
after(() => dir.cleanup());

/** `value` after a trip through postMessage (structured clone), as another thread receives it. */
function posted<T>(value: T): T {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(value);
  const got = receiveMessageOnPort(port2)!.message as T;
  port1.close();
  return got;
}

test('posted, every column is the same memory: a byte written on one side is read on the other', () => {
  const copy = datasetFromMessage(posted(datasetMessage(dataset)));
  const mine = dataset.markets.ashare.klines.close;
  const theirs = copy.markets.ashare.klines.close;
  assert.notEqual(theirs, mine, 'another view…');
  assert.equal(theirs.buffer.byteLength, mine.buffer.byteLength);
  const was = mine[0];
  mine[0] = 123.25; // a test's write: the Dataset is immutable in the server
  assert.equal(theirs[0], 123.25, '…of the same memory');
  mine[0] = was;
});

test('the posted Dataset answers as the original: versions, symbols found either case, snapshot values, macro', () => {
  const copy = datasetFromMessage(posted(datasetMessage(dataset)));
  assert.equal(copy.version, dataset.version);
  for (const m of ['ashare', 'hkstock', 'usstock'] as const) {
    const a = dataset.markets[m];
    const b = copy.markets[m];
    assert.deepEqual(b.symbols.codes, a.symbols.codes);
    for (const code of a.symbols.codes) assert.equal(b.symbols.find(code.toUpperCase()), a.symbols.find(code));
    assert.deepEqual([...b.snapshots.values.close], [...a.snapshots.values.close]);
    assert.deepEqual([b.firstDate, b.lastDate], [a.firstDate, a.lastDate]);
  }
  assert.deepEqual(copy.macro, dataset.macro);
});

test('a column outside shared memory is refused, named: each thread would hold a copy', () => {
  const m = dataset.markets.ashare;
  const odd: Dataset = { ...dataset, markets: { ...dataset.markets, ashare: { ...m, klines: { ...m.klines, close: new Float64Array(m.klines.close) } } } };
  assert.throws(() => datasetMessage(odd), (e: Error) => e instanceof NotShared && /markets\.ashare\.klines\.close is not in shared memory/.test(e.message));
});
