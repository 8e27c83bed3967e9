// Detail snapshots, one symbol and a batch of 50: cached rendered rows against row objects + fast-json-stringify.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { projectSnapshotColumns } from '../../engine/kernels/project-fields.js';
import { assemble, type BodyPart } from '../../transport/serialise/assemble.js';
import { serialisers } from '../../transport/serialise/compile.js';
import { snapshotRow } from '../../transport/serialise/rows.js';
import { bodyBytes, bodyText, type MicroCase, thousands, keptFor } from './case.js';
import { pickDistinct } from './seeded.js';

/** Symbols of the batch case (the most a plan allows in one batch). */
export const DETAIL_BATCH = 50;

/** Every column (no `fields`): what the detail routes answer by default. */
const COLUMNS = (() => {
  const p = projectSnapshotColumns(['*']);
  if (!p.ok) throw new Error('the * projection names every column');
  return p.fields;
})();
const KEY = COLUMNS.join(',');

export function detailCases(dataset: Dataset): MicroCase[] {
  const m = dataset.markets.ashare;
  const picks = pickDistinct(m.symbols.size, DETAIL_BATCH);
  const one = picks[0];
  const cache = keptFor(dataset).snapshotRows;
  const single = (): Buffer => {
    const head = `{"market":"${m.market}","symbol":"${m.symbols.codes[one]}","count":1,"data":`;
    return assemble([head, cache.row(m, one, COLUMNS, KEY), '}']);
  };
  const singleValue = () => ({
    market: m.market,
    symbol: m.symbols.codes[one],
    count: 1,
    data: snapshotRow(m, one, COLUMNS),
  });
  const batch = (): Buffer => {
    const body: BodyPart[] = [`{"market":"${m.market}","count":${picks.length},"data":{`];
    picks.forEach((i, n) => body.push(`${n > 0 ? ',' : ''}"${m.symbols.codes[i]}":`, cache.row(m, i, COLUMNS, KEY)));
    body.push('}}');
    return assemble(body);
  };
  const batchValue = () => ({
    market: m.market,
    count: picks.length,
    data: Object.fromEntries(picks.map((i) => [m.symbols.codes[i], snapshotRow(m, i, COLUMNS)])),
  });
  return [
    {
      group: 'detail',
      name: 'ashare 1 symbol, all columns',
      detail: `${m.symbols.codes[one]}, ${thousands(bodyBytes(single()))} B`,
      variants: [
        { name: 'cached row text', run: single },
        { name: 'row object + fjs', run: () => Buffer.from(serialisers.detail(singleValue())) },
        { name: 'row object + JSON.stringify', run: () => Buffer.from(JSON.stringify(singleValue())) },
      ],
      baseline: 'row object + fjs',
      answer: bodyText,
    },
    {
      group: 'detail',
      name: `ashare batch of ${picks.length}, all columns`,
      detail: `${thousands(bodyBytes(batch()))} B`,
      variants: [
        { name: 'cached row text', run: batch },
        { name: 'row objects + fjs', run: () => Buffer.from(serialisers.detailBatch(batchValue())) },
        { name: 'row objects + JSON.stringify', run: () => Buffer.from(JSON.stringify(batchValue())) },
      ],
      baseline: 'row objects + fjs',
      answer: bodyText,
    },
  ];
}
