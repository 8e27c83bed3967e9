// The progress reporter: silent until done off a terminal, throttled redraws on one.

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { startProgress, timeLeft } from '../../loaders/progress.js';

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

test('the live line ends with the time left at the rate so far', () => {
  const { writes, out } = fakeOut(true);
  let clock = 0;
  const p = startProgress('load', 1000, { out, now: () => clock });
  p.add(0);
  assert.match(writes[0], /, estimating time left$/, 'no rate yet');
  clock = 2000;
  p.add(250); // 125 rows/s; 750 rows left
  assert.match(writes[1], /load 25\.0% 250 rows 125 rows\/s, about 6 s left$/);
  clock = 4000;
  p.add(750);
  assert.match(writes[2], /, finishing$/);
});

test('off a terminal a long job prints a progress line with the time left every 5 s, a short one only its summary', () => {
  const { writes, out } = fakeOut(false);
  let clock = 0;
  const p = startProgress('demo snapshot', 100_000, { out, now: () => clock });
  clock = 4999;
  p.add(10_000);
  assert.deepEqual(writes, [], 'nothing before 5 s');
  clock = 5000;
  p.add(10_000); // 20,000 rows in 5 s: 4,000 rows/s, 80,000 rows left
  assert.deepEqual(writes, ['demo snapshot 20.0% 20,000 rows 4,000 rows/s, about 20 s left\n']);
  clock = 9000;
  p.add(10_000);
  assert.equal(writes.length, 1, 'the next line 5 s after the last');
  clock = 10_000;
  p.add(10_000);
  assert.equal(writes.length, 2);
  assert.match(writes[1], /^demo snapshot 40\.0% 40,000 rows 4,000 rows\/s, about 15 s left\n$/);
});

test('times left of a minute or more read in minutes and seconds', () => {
  assert.equal(timeLeft(0, 10, 5), 'estimating time left');
  assert.equal(timeLeft(10, 10, 5), 'finishing');
  assert.equal(timeLeft(1, 1000, 8), 'about 2 min 5 s left');
});
