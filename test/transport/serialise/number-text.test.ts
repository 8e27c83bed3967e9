// ByteWriter writes exactly what JSON.stringify writes, on its fast path and off it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteWriter } from '../../../transport/serialise/byte-writer.js';

const text = (x: number): string => {
  const w = new ByteWriter(4);
  w.number(x);
  return w.take().toString('latin1');
};

test('edge values match JSON.stringify', () => {
  const values = [
    0,
    -0,
    1,
    -1,
    0.1,
    0.2,
    0.30000000000000004,
    0.0001,
    0.00005,
    1e-7,
    12.34,
    -12.34,
    99999999999.9999,
    1e11,
    -1e11,
    123456789012345,
    2 ** 53,
    1e21,
    5e-324,
    1.7976931348623157e308,
    10.5,
    6.3,
    29483583,
    25995480.5,
    2.157024,
    1.052631,
    9999.9999,
    10000,
  ];
  for (const x of values) assert.equal(text(x), JSON.stringify(x), `number(${x})`);
  assert.equal(text(NaN), 'null', 'NaN (a null cell) is null');
});

test('100,000 random prices of 0–6 decimals match JSON.stringify', () => {
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let n = 0; n < 100_000; n++) {
    const decimals = Math.floor(random() * 7);
    const x = Number((random() * 10 ** Math.floor(random() * 12) * (random() < 0.1 ? -1 : 1)).toFixed(decimals));
    assert.equal(text(x), JSON.stringify(x), `number(${x})`);
  }
});

test('the writer grows past its initial capacity and take() resets it', () => {
  const w = new ByteWriter(2);
  for (let i = 0; i < 1000; i++) w.ascii('abc');
  assert.equal(w.take().length, 3000);
  w.ascii('x');
  assert.equal(w.take().toString(), 'x');
});

test('ByteWriter.takeOwn: a small copy is memory of its own, not a slice of the shared 8 KiB pool', () => {
  const w = new ByteWriter(64);
  w.ascii(',{"close":1}');
  const own = w.takeOwn();
  assert.equal(own.toString(), ',{"close":1}');
  assert.equal(own.buffer.byteLength, own.length);
  assert.equal(w.pos, 0, 'the writer is emptied');
});
