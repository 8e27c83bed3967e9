// ResponseCache on its own: admission on the second ask, oldest-first eviction within the budget, the body size cap.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOORKEEPER_SLOTS, DOORKEEPER_WAYS, hash53 } from '../../../transport/caches/doorkeeper.js';
import type { BodyPart } from '../../../transport/serialise/assemble.js';
import {
  BUFFER_OVERHEAD_BYTES,
  type CachedAnswer,
  ENTRY_OVERHEAD_BYTES,
  MAX_KEY_CHARS,
  ResponseCache,
  textBytes,
} from '../../../transport/caches/response-cache.js';
import { SLAB_BYTES, Slabs } from '../../../transport/caches/slabs.js';

/** What an entry counts against the budget: body bytes, its key and tag (`offer` below) as held, and the measured overhead. */
const cost = (key: string, bodyBytes: number): number =>
  bodyBytes + textBytes(key) + textBytes(`v\n${key}\njson`) + ENTRY_OVERHEAD_BYTES;

/** Offers an answer of `rows` rows with `body`, as the server does. */
const offer = (
  cache: ResponseCache,
  key: string,
  rows: number,
  body: string | Buffer | BodyPart[],
): CachedAnswer | null =>
  cache.offer(key, {
    rows,
    type: 'application/json; charset=utf-8',
    link: null,
    body,
    format: 'json',
    tag: `v\n${key}\njson`,
  });

test('the first offer of a key is not kept; the second is, as one Buffer of the same bytes', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 20, maxBodyBytes: 1000 });
  assert.equal(offer(cache, 'a', 2, ['{"x":', Buffer.from('[1,2]'), '}']), null);
  assert.equal(cache.get('a'), undefined);
  const kept = offer(cache, 'a', 2, ['{"x":', Buffer.from('[1,2]'), '}']);
  assert.ok(kept !== null);
  assert.equal(kept.body.toString(), '{"x":[1,2]}');
  assert.equal(kept.rows, 2);
  assert.equal(kept.type, 'application/json; charset=utf-8');
  assert.strictEqual(cache.get('a'), kept);
  assert.deepEqual(cache.stats, { entries: 1, bytes: cost('a', 11) });
});

test('a kept body does not share memory with the reused assembly buffer', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 20, maxBodyBytes: 1000 });
  offer(cache, 'a', 1, ['"first"', Buffer.from('!')]);
  const kept = offer(cache, 'a', 1, ['"first"', Buffer.from('!')])!;
  offer(cache, 'b', 1, ['"other"', Buffer.from('?')]); // assembles into the same scratch buffer
  offer(cache, 'b', 1, ['"other"', Buffer.from('?')]);
  assert.equal(kept.body.toString(), '"first"!');
});

test('strings and single Buffers are kept too; UTF-8 is counted in bytes', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 20, maxBodyBytes: 1000 });
  offer(cache, 's', 1, '"银行"');
  assert.equal(offer(cache, 's', 1, '"银行"')!.body.length, 8);
  const source = Buffer.from('{}');
  offer(cache, 'b', 0, source);
  const kept = offer(cache, 'b', 0, source)!;
  source[0] = 0x5b;
  assert.equal(kept.body.toString(), '{}', "a copy, not a view of the caller's bytes");
});

test('past the budget (bodies, keys and overhead) the oldest answers go first', () => {
  const cache = new ResponseCache({ budgetBytes: 3 * cost('a', 10), maxBodyBytes: 30 });
  for (const key of ['a', 'b', 'c', 'd']) {
    offer(cache, key, 1, 'x'.repeat(10));
    offer(cache, key, 1, 'x'.repeat(10));
  }
  assert.equal(cache.get('a'), undefined, 'the oldest made room for d');
  for (const key of ['b', 'c', 'd']) assert.ok(cache.get(key), key);
  assert.deepEqual(cache.stats, { entries: 3, bytes: 3 * cost('a', 10) });
});

test('a body over the size cap is never kept and evicts nothing', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 20, maxBodyBytes: 20 });
  offer(cache, 'small', 1, 'x'.repeat(20));
  offer(cache, 'small', 1, 'x'.repeat(20));
  offer(cache, 'big', 1, 'x'.repeat(21));
  assert.equal(offer(cache, 'big', 1, 'x'.repeat(21)), null);
  assert.equal(cache.get('big'), undefined);
  assert.ok(cache.get('small'));
});

test('the memory of keys asked once is a fixed table: old keys are forgotten as new ones take their slots', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 30, maxBodyBytes: 1 << 20 });
  const long = (n: number): string => `${n}:`.padEnd(MAX_KEY_CHARS, 'k');
  const later = 8 * DOORKEEPER_SLOTS; // enough keys that every slot is taken again (all but e^-8 of them)
  offer(cache, long(0), 1, '0');
  for (let n = 1; n <= later; n++) offer(cache, `key ${n}`, 1, '0');
  assert.equal(offer(cache, long(0), 1, '0'), null, 'forgotten: asked "once" again');
  assert.ok(offer(cache, `key ${later}`, 1, '0'), 'the latest key is still remembered');
  assert.deepEqual(cache.stats, { entries: 1, bytes: cost(`key ${later}`, 1) }, 'only keys asked twice are kept');
});

test('compressed bodies and header blocks are kept in the slabs, each counted', () => {
  const cache = new ResponseCache({ budgetBytes: 64 << 20, maxBodyBytes: 1 << 20 });
  const body = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ close: i, volume: i * 7 })) });
  offer(cache, 'k', 200, body);
  const kept = offer(cache, 'k', 200, body)!;
  let expected = cost('k', body.length);
  for (const encoding of ['gzip', 'br'] as const) {
    const { body: compressed, encoding: used } = cache.encoded(kept, encoding);
    assert.equal(used, encoding);
    assert.strictEqual(
      compressed.buffer,
      kept.body.buffer,
      `${encoding}: in the slab, not zlib's 16 KiB output buffer`,
    );
    assert.strictEqual(cache.encoded(kept, encoding).body, compressed, 'compressed once');
    expected += compressed.length + BUFFER_OVERHEAD_BYTES;
  }
  const head = cache.keepHead(kept, 1, { name: 'content-type', value: 'application/json\r\netag: "x"' });
  assert.ok(Buffer.isBuffer(head.value) && head.value.buffer.byteLength === SLAB_BYTES, 'the block as bytes of a slab');
  assert.equal(head.value.toString(), 'application/json\r\netag: "x"');
  assert.strictEqual(head.value.buffer, kept.body.buffer, "in the slab of the answer's body");
  assert.strictEqual(kept.heads[1], head);
  expected += head.value.length + BUFFER_OVERHEAD_BYTES;
  assert.deepEqual(cache.stats, { entries: 1, bytes: expected });
  assert.equal(kept.bytes, expected);
});

test('kept bodies share slabs in turn, each its own bytes; a body over a 16th of a slab has memory of its own', () => {
  const cache = new ResponseCache({ budgetBytes: 64 << 20, maxBodyBytes: 1 << 20 });
  const keep = (key: string, body: string): Buffer => {
    offer(cache, key, 1, body);
    return offer(cache, key, 1, body)!.body;
  };
  // Bodies of 8,000 B (not a multiple of 8: each starts 8-aligned) until a slab is full, and one more.
  const size = 8001;
  const perSlab = Math.floor(SLAB_BYTES / (size + 8 - (size % 8 || 8)));
  const bodies = Array.from({ length: perSlab + 1 }, (_, i) => keep(`k${i}`, String(i % 10).repeat(size)));
  bodies.forEach((b, i) => assert.equal(b.toString(), String(i % 10).repeat(size), `body ${i} intact`));
  const first = bodies[0].buffer;
  assert.equal(first.byteLength, SLAB_BYTES);
  assert.ok(
    bodies.slice(0, perSlab).every((b) => b.buffer === first && b.byteOffset % 8 === 0),
    'one slab, 8-aligned',
  );
  assert.notStrictEqual(bodies[perSlab].buffer, first, 'a full slab starts the next');
  const large = keep('large', 'x'.repeat(SLAB_BYTES / 16 + 1));
  assert.equal(large.buffer.byteLength, SLAB_BYTES / 16 + 1, 'memory of its own, exactly its size');
});

test("a dropped piece's bytes stay held (dead) until its slab keeps none, then the slab's are freed", () => {
  const slabs = new Slabs(4096); // pieces up to 256 B
  const piece = (n: number): Buffer => slabs.copy('x'.repeat(n));
  const [p1, p2, p3] = [piece(200), piece(201), piece(200)]; // 200 + 208 + 200 of the first slab
  const fill = Array.from({ length: 15 }, () => piece(248)); // 3,720 more: 4,328 > 4,096 from the 15th
  assert.strictEqual(fill[13].buffer, p1.buffer, 'the first slab');
  assert.notStrictEqual(fill[14].buffer, p1.buffer, 'a second slab');
  slabs.drop(p1);
  slabs.drop(p2);
  assert.equal(slabs.dead, 408, 'dropped but held: their slab keeps other pieces');
  slabs.drop(p3);
  for (const p of fill.slice(0, 13)) slabs.drop(p);
  assert.equal(slabs.dead, 608 + 13 * 248);
  slabs.drop(fill[13]); // the first slab's last piece: all its bytes are freed
  assert.equal(slabs.dead, 0);
  slabs.drop(fill[14]); // the slab being filled stays
  assert.equal(slabs.dead, 248);
  const own = slabs.copy('y'.repeat(257));
  assert.equal(own.buffer.byteLength, 257, 'over 256 B: memory of its own');
  slabs.drop(own);
  assert.equal(slabs.dead, 248, 'freed with its Buffer, never dead');
  assert.equal(new Slabs(4095).copy('z').buffer.byteLength, 1, 'no slabs under 4 KiB');
  const empty = slabs.copy('');
  assert.equal(empty.buffer.byteLength, 0, 'an empty piece: no slab space');
  slabs.drop(empty);
  assert.equal(slabs.dead, 248);
});

test("the budget holds the entries and the slabs' dead bytes: dropped answers free their slabs' memory as it empties", () => {
  const budget = 4 << 20; // slabs of 64 KiB, pieces up to 4 KiB
  const cache = new ResponseCache({ budgetBytes: budget, maxBodyBytes: 1 << 20 });
  const body = (i: number): string => JSON.stringify({ i, data: 'z'.repeat(3000) });
  const kept: CachedAnswer[] = [];
  for (let i = 0; i < 3000; i++) {
    offer(cache, `k${i}`, 1, body(i));
    const a = offer(cache, `k${i}`, 1, body(i))!;
    cache.encoded(a, 'gzip'); // a compressed body made later than the answer's own
    if (i > 0) cache.encoded(kept[i - 1], 'br'); // and one for the answer before it, made later still
    kept.push(a);
    assert.ok(cache.stats.bytes <= budget, `within the budget after ${i + 1}`);
  }
  const held = cache.stats;
  assert.ok(held.entries < 3000 && held.entries > 500, `oldest dropped: ${held.entries} kept`);
  // Pieces made for answers long dropped (a request still sending them) are dead at once, still within the budget.
  for (let i = 0; i < 200; i++) {
    const before = cache.stats;
    cache.keepHead(kept[i], 2, { name: 'content-type', value: `application/json\r\netag: "${i}"` });
    const after = cache.stats;
    assert.ok(after.bytes <= budget, `within the budget after a late block for answer ${i}`);
    // counted as dead bytes, or room made for them by dropping older answers: never uncounted
    if (after.entries === before.entries) assert.ok(after.bytes > before.bytes, `answer ${i}'s late block counted`);
    else assert.ok(after.entries < before.entries, `answer ${i}'s late block made room`);
  }
  assert.equal(kept[2999].body.toString(), body(2999), 'the newest intact');
});

test('strings an entry holds count two bytes a character unless all are ASCII', () => {
  assert.equal(textBytes('abc'), 3 + 24);
  assert.equal(textBytes('银行'), 4 + 24);
});

test('an answer computed twice at once (pool work) is kept once and counted once', () => {
  const cache = new ResponseCache({ budgetBytes: 10_000, maxBodyBytes: 1000 });
  offer(cache, 'k', 1, 'first');
  const kept = offer(cache, 'k', 1, 'first')!;
  assert.strictEqual(offer(cache, 'k', 1, 'again'), kept, 'the entry already held is returned');
  assert.strictEqual(offer(cache, 'k', 1, 'again'), kept);
  assert.deepEqual(cache.stats, { entries: 1, bytes: cost('k', 5) });
});

test('a key longer than MAX_KEY_CHARS (padded with ignored parameters) is never kept', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 20, maxBodyBytes: 1000 });
  const key = 'x'.repeat(MAX_KEY_CHARS + 1);
  for (let n = 0; n < 3; n++) assert.equal(offer(cache, key, 1, '{}'), null);
  assert.deepEqual(cache.stats, { entries: 0, bytes: 0 });
});

test('an entry that alone exceeds the budget is not kept and evicts nothing', () => {
  const cache = new ResponseCache({ budgetBytes: cost('a', 10), maxBodyBytes: 1000 });
  offer(cache, 'a', 1, 'x'.repeat(10));
  offer(cache, 'a', 1, 'x'.repeat(10));
  offer(cache, 'b', 1, 'x'.repeat(11));
  assert.equal(offer(cache, 'b', 1, 'x'.repeat(11)), null);
  assert.ok(cache.get('a'));
});

test('keys that share a bucket of the asked-once table, asked in turn, are each kept on their second ask', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 30, maxBodyBytes: 1 << 20 });
  // DOORKEEPER_WAYS keys landing in one bucket (the hash's low bits): with a slot per key they
  // took it from each other on every ask, and none was ever kept.
  const buckets = DOORKEEPER_SLOTS / DOORKEEPER_WAYS;
  const bucketOf = (key: string): number => hash53(key) & (buckets - 1);
  const shared: string[] = ['/api/v1/ashare/detail/sh600000'];
  for (let n = 0; shared.length < DOORKEEPER_WAYS; n++)
    if (bucketOf(`/api/v1/ashare/detail/k${n}`) === bucketOf(shared[0])) shared.push(`/api/v1/ashare/detail/k${n}`);
  for (const key of shared) assert.equal(offer(cache, key, 1, '0'), null, 'a first ask is not kept');
  for (const key of shared) assert.ok(offer(cache, key, 1, '0'), `${key} kept on its second ask`);
  assert.equal(cache.stats.entries, DOORKEEPER_WAYS);
});

test('1,000 distinct keys asked in turn are all kept on their second pass', () => {
  const cache = new ResponseCache({ budgetBytes: 1 << 30, maxBodyBytes: 1 << 20 });
  const keys = Array.from(
    { length: 1000 },
    (_, i) => `json /api/v1/:market/screen pro/1 ashare?max_pe_ratio=${20 + (i % 40)}&offset=${i}`,
  );
  for (const key of keys) offer(cache, key, 1, '0');
  for (const key of keys) offer(cache, key, 1, '0');
  assert.equal(cache.stats.entries, 1000);
});
