// The progress reporter: silent until done off a terminal, throttled redraws on one.

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { startProgress } from '../../loaders/progress.js';

function fakeOut(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, out: { isTTY, write: (s: string) => writes.push(s) } };
}

test('off a terminal it prints nothing until done, then one summary line', () => {
  const { writes, out } = fakeOut(false);
  let clock = 1000;
  const p = startProgress('demo', 1000, { out, now: () => clock });
  p.add(400);
  clock += 1000;
  p.add(600);
  assert.deepEqual(writes, [], 'silent while running');
  clock += 1000;
  const summary = p.done();
  assert.deepEqual(summary, { rows: 1000, seconds: 2, rowsPerSecond: 500 });
  assert.deepEqual(writes, ['demo: 1,000 rows in 2.0 s (500 rows/s)\n']);
  p.done();
  assert.equal(writes.length, 1, 'done twice prints once');
});

test('on a terminal it redraws at most every 100 ms and ends the line when done', () => {
  const { writes, out } = fakeOut(true);
  let clock = 0;
  const p = startProgress('load', 200, { out, now: () => clock });
  p.add(50);
  p.add(50);
  assert.equal(writes.length, 1, 'second add within 100 ms does not redraw');
  assert.match(writes[0], /load 25\.0% 50 rows/);
  clock = 150;
  p.add(100);
  assert.equal(writes.length, 2);
  assert.match(writes[1], /load 100\.0% 200 rows/);
  p.done();
  assert.ok(writes[2].startsWith('\r') && writes[2].endsWith('\n'), 'final line replaces the live one');
});
