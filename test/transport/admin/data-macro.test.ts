// The data page's macro card: its series count is the number of distinct series keys in the served snapshot's macro.csv.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FIXTURE } from '../../helpers/fixture-copy.js';
import { type AdminServer, type Operator, startSignedIn } from './admin-server.js';

/** Distinct `key` cells and `indicator` cells of a macro.csv, read here without the loader: the independent count. */
async function countMacroCsv(path: string): Promise<{ series: number; indicators: number }> {
  const [header, ...lines] = (await readFile(path, 'utf8')).split(/\r?\n/).filter((l) => l.trim() !== '');
  const names = header.split(',').map((n) => n.trim().toLowerCase());
  const cells = lines.map((l) => l.split(','));
  const distinct = (name: string) => new Set(cells.map((c) => c[names.indexOf(name)].trim())).size;
  return { series: distinct('key'), indicators: distinct('indicator') };
}

describe('macro series on the data page', () => {
  let s: AdminServer;
  let op: Operator;
  before(async () => ({ s, op } = await startSignedIn()));
  after(() => s.close());

  const data = async () => (await s.call('/admin/api/data', { cookie: op.cookie })).body;

  test("the fixture's macro series: as many as its macro.csv has distinct keys", async () => {
    const expected = await countMacroCsv(join(FIXTURE, 'macro.csv'));
    assert.ok(expected.series > expected.indicators, 'the fixture has several keys per indicator');
    const d = await data();
    assert.equal(d.macro, true);
    assert.equal(d.macro_series, expected.series);
    assert.equal(d.macro_indicators, expected.indicators);
  });

  test('a key repeated at a later date and a new key, after a reload: counted once, and the new one added', async () => {
    const path = join(s.folder, 'macro.csv');
    await writeFile(
      path,
      `${await readFile(path, 'utf8')}gdp,2025-03-31,GDP_GDP,1350000.0\ngdp,2025-03-31,GDP_PRIMARY_YOY,3.1\n`,
    );
    const expected = await countMacroCsv(path);
    assert.equal((await s.write(op, '/admin/api/reload')).body.kind, 'loaded');
    assert.equal((await data()).macro_series, expected.series);
  });

  test('a snapshot without macro.csv: 0 series', async () => {
    await rm(join(s.folder, 'macro.csv'));
    assert.equal((await s.write(op, '/admin/api/reload')).body.kind, 'loaded');
    const d = await data();
    assert.deepEqual([d.macro, d.macro_series, d.macro_indicators], [false, 0, 0]);
  });
});
