// ResponseCache on its own: admission on the second ask, oldest-first eviction within the budget, the body size cap.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Reply } from '../../../transport/route.js';
import { ResponseCache } from '../../../transport/serialise/response-cache.js';

const reply = (rows: number): Reply => ({ shape: 'markets', value: null, rows });

test('the first offer of a key is not kept; the second is, as one Buffer of the same bytes', () => {
  const cache = new ResponseCache({ budgetBytes: 1000, maxBodyBytes: 1000 });
  assert.equal(cache.offer('a', reply(2), ['{"x":', Buffer.from('[1,2]'), '}']), null);
  assert.equal(cache.get('a'), undefined);
  const kept = cache.offer('a', reply(2), ['{"x":', Buffer.from('[1,2]'), '}']);
  assert.ok(kept !== null);
  assert.equal(kept.body[0].toString(), '{"x":[1,2]}');
  assert.equal(kept.rows, 2);
  assert.equal(kept.shape, 'markets');
  assert.strictEqual(cache.get('a'), kept);
  assert.deepEqual(cache.stats, { entries: 1, bytes: 11 });
});

test('a kept body does not share memory with the reused assembly buffer', () => {
  const cache = new ResponseCache({ budgetBytes: 1000, maxBodyBytes: 1000 });
  cache.offer('a', reply(1), ['"first"', Buffer.from('!')]);
  const kept = cache.offer('a', reply(1), ['"first"', Buffer.from('!')])!;
  cache.offer('b', reply(1), ['"other"', Buffer.from('?')]); // assembles into the same scratch buffer
  cache.offer('b', reply(1), ['"other"', Buffer.from('?')]);
  assert.equal(kept.body[0].toString(), '"first"!');
});

test('strings and single Buffers are kept too; UTF-8 is counted in bytes', () => {
  const cache = new ResponseCache({ budgetBytes: 1000, maxBodyBytes: 1000 });
  cache.offer('s', reply(1), '"银行"');
  assert.equal(cache.offer('s', reply(1), '"银行"')!.body[0].length, 8);
  const source = Buffer.from('{}');
  cache.offer('b', reply(0), source);
  const kept = cache.offer('b', reply(0), source)!;
  source[0] = 0x5b;
  assert.equal(kept.body[0].toString(), '{}', 'a copy, not a view of the caller\'s bytes');
});

test('past the budget the oldest answers go first', () => {
  const cache = new ResponseCache({ budgetBytes: 30, maxBodyBytes: 30 });
  for (const key of ['a', 'b', 'c', 'd']) {
    cache.offer(key, reply(1), 'x'.repeat(10));
    cache.offer(key, reply(1), 'x'.repeat(10));
  }
  assert.equal(cache.get('a'), undefined, 'the oldest made room for d');
  for (const key of ['b', 'c', 'd']) assert.ok(cache.get(key), key);
  assert.deepEqual(cache.stats, { entries: 3, bytes: 30 });
});

test('a body over the size cap is never kept and evicts nothing', () => {
  const cache = new ResponseCache({ budgetBytes: 100, maxBodyBytes: 20 });
  cache.offer('small', reply(1), 'x'.repeat(20));
  cache.offer('small', reply(1), 'x'.repeat(20));
  cache.offer('big', reply(1), 'x'.repeat(21));
  assert.equal(cache.offer('big', reply(1), 'x'.repeat(21)), null);
  assert.equal(cache.get('big'), undefined);
  assert.ok(cache.get('small'));
});

test('the memory of keys asked once is bounded and starts over past its size', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 20, maxBodyBytes: 1 << 20 });
  const long = (n: number): string => `${n}:`.padEnd(1 << 16, 'k'); // 64 Ki characters
  cache.offer(long(0), reply(1), '0');
  for (let n = 1; n <= 64; n++) cache.offer(long(n), reply(1), '0'); // 4 Mi characters more: the memory starts over
  assert.equal(cache.offer(long(0), reply(1), '0'), null, 'forgotten: asked "once" again');
  assert.ok(cache.offer(long(64), reply(1), '0'), 'the latest key is still remembered');
});
