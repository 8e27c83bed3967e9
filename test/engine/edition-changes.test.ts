// editionChanges, addedRows and factorChanged over stored editions of the fixture with rows appended,
// corrected and dropped: what "added" means, checked against the appended CSV lines themselves.

import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { addedRows, editionChanges, factorChanged } from '../../engine/queries/edition-changes.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { dayOf } from '../helpers/fixture-model.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';

/** Appended to ashare: three days (one symbol two of them), a factor moved (sz000004: 1.2 → 1.5), a new symbol with an old date. */
const APPENDED = [
  'sh600001,2025-03-17,6.30,6.50,6.28,6.45,50000,32000000.00,2.157024',
  'sh600001,2025-03-18,6.45,6.55,6.40,6.50,51000,33000000.00,2.157024',
  'sz000004,2025-03-19,22.19,22.50,22.00,22.40,6000,13400000.00,1.5',
  'sz000009,2025-03-10,3.00,3.10,2.95,3.05,1000,305000.00,1',
];
/** A correction of an old row (sz000003's close of 2025-03-14). */
const OLD = 'sz000003,2025-03-14,3.09,3.14,3.05,3.11,9900,3078900.00,1.031000';
const CORRECTED = 'sz000003,2025-03-14,3.09,3.14,3.05,3.12,9900,3078900.00,1.031000';

let root = '';
let before_: Dataset;
let after_: Dataset;
let same: Dataset;

/** The fixture (with `edits` and `appended` lines) stored in state folder `state` and opened (markets stored already are shared). */
async function edition(
  name: string,
  state: string,
  edits: { file: string; from: string; to: string }[],
  appended: string[],
) {
  const folder = await fixtureCopy(join(root, name), edits);
  if (appended.length > 0) await appendFile(join(folder, 'ashare/klines.csv'), `${appended.join('\n')}\n`);
  await writeFile(
    join(folder, 'ashare/symbols.csv'),
    'symbol,name\nsh600001,a\nsz000002,b\nsz000003,c\nsz000004,d\nsz000005,e\nsh600006,f\nsh600007,g\nsh600008,h\nsh600009,i\nsz000009,j\n',
  );
  await storeEdition(folder, state, { threads: 0 });
  return (await openCurrentDataset(state))!;
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'mdq-edition-changes-'));
  before_ = await edition('A', join(root, 'state'), [], []);
  after_ = await edition('B', join(root, 'state'), [{ file: 'ashare/klines.csv', from: OLD, to: CORRECTED }], APPENDED);
  same = await edition('A2', join(root, 'other-state'), [], []);
});
after(() => rm(root, { recursive: true, force: true }));

test('only the changed market is listed; a market absent from both is not; its days after the last day before, and rows dated after it', () => {
  const changes = editionChanges(before_, after_);
  assert.deepEqual(
    changes.map((c) => c.after.market),
    ['ashare'],
  );
  const [c] = changes;
  assert.equal(c.lastBefore, dayOf('2025-03-14'));
  assert.deepEqual([...c.daysAdded], ['2025-03-17', '2025-03-18', '2025-03-19'].map(dayOf));
  // The appended lines dated after 2025-03-14: the old-dated new symbol and the corrected row are not "added".
  const added = APPENDED.filter((l) => l.split(',')[1] > '2025-03-14');
  assert.equal(c.rowsAdded, added.length);
});

test("each symbol's added rows are exactly its appended lines dated after the last day before", () => {
  const [c] = editionChanges(before_, after_);
  const m = c.after;
  for (let i = 0; i < m.symbols.size; i++) {
    const code = m.symbols.codes[i];
    const { from, to } = addedRows(m, c.lastBefore!, i);
    const dates = [...m.klines.date.subarray(from, to)];
    const expected = APPENDED.filter((l) => l.startsWith(`${code},`) && l.split(',')[1] > '2025-03-14').map((l) =>
      dayOf(l.split(',')[1]),
    );
    assert.deepEqual(dates, expected, code);
  }
});

test('factorChanged: a symbol whose latest adj_factor moved; not one whose factor held, nor a symbol new in the edition', () => {
  const [c] = editionChanges(before_, after_);
  const moved = c.after.symbols.codes.filter((_, i) => factorChanged(c, i));
  assert.deepEqual(moved, ['sz000004']);
});

test('the same folder stored again is no change; an edition against itself neither', () => {
  assert.deepEqual(editionChanges(before_, before_), []);
  // Another state folder holds other parts (new MarketData), but the same rows: every market "changed", none added.
  for (const c of editionChanges(before_, same)) {
    assert.equal(c.rowsAdded, 0, c.after.market);
    assert.equal(c.daysAdded.length, 0);
  }
});

test('a market with no rows before: its whole history is its rows added, but no day is "added"', () => {
  const empty = {
    ...before_,
    markets: { ...before_.markets, hkstock: { ...before_.markets.crypto, market: 'hkstock' as const } },
  };
  const [c] = editionChanges(empty, before_);
  assert.equal(c.after.market, 'hkstock');
  assert.equal(c.lastBefore, null);
  assert.equal(c.daysAdded.length, 0);
  assert.equal(c.rowsAdded, before_.markets.hkstock.klines.date.length);
});

test("historyChanged: false only when the market's K-lines were stored as before's with later days appended (Dataset.lineage)", () => {
  const [c] = editionChanges(before_, after_);
  // B corrects an old row and adds a symbol with an old date: read whole, its history changed.
  assert.equal(c.historyChanged, true);
  const part = (d: Dataset) => d.lineage!.ashare!.id;
  const appended = (d: Dataset, appendsTo: string | null): Dataset => ({
    ...d,
    lineage: { ...d.lineage, ashare: { id: part(d), appendsTo } },
  });
  // The same columns, as if a merge had appended to before's part: kept.
  assert.equal(editionChanges(before_, appended(after_, part(before_)))[0].historyChanged, false);
  // Appended to another part than the one served before (a skipped edition): changed.
  assert.equal(editionChanges(before_, appended(after_, 'ashare-0000000000000000'))[0].historyChanged, true);
  // No lineage (a Dataset made in memory): changed.
  assert.equal(editionChanges(before_, { ...after_, lineage: undefined })[0].historyChanged, true);
  // A market that had no rows: nothing of its history to change.
  const empty = {
    ...before_,
    markets: { ...before_.markets, hkstock: { ...before_.markets.crypto, market: 'hkstock' as const } },
  };
  assert.equal(editionChanges(empty, before_)[0].historyChanged, false);
});
