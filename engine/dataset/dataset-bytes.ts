// The raw bytes of a Dataset's columns: what its resident memory is compared against.

import { type Dataset, marketsInOrder } from './dataset.js';

/** Sum of the byte lengths of every typed array the Dataset holds. */
export function datasetBytes(dataset: Dataset): number {
  let bytes = 0;
  const add = (arrays: Iterable<ArrayBufferView>): void => {
    for (const a of arrays) bytes += a.byteLength;
  };
  for (const m of marketsInOrder(dataset)) {
    add(Object.values(m.klines));
    add([m.fundamentals.offsets, m.fundamentals.date, ...Object.values(m.fundamentals.columns)]);
    add([m.snapshots.date, ...Object.values(m.snapshots.values)]);
  }
  return bytes;
}
