// Every micro-benchmark case of `npm run bench`, in the order the table prints them.

import type { Dataset } from '../../engine/dataset/dataset.js';
import type { MicroCase } from './case.js';
import { detailCases } from './detail.js';
import { encodeCases } from './formats.js';
import { klineCases } from './klines.js';
import { querySurfaceCases } from './query-surface.js';
import { screenCases } from './screen.js';
import { serialiserCases } from './serialisers.js';

/** K-lines, the query surface (bars, cross-section, aliases), screen, detail, then one case per response serialiser and each format's cost of two answers; inputs are seeded picks from `dataset`. */
export function microCases(dataset: Dataset): MicroCase[] {
  return [
    ...klineCases(dataset),
    ...querySurfaceCases(dataset),
    ...screenCases(dataset),
    ...detailCases(dataset),
    ...serialiserCases(dataset),
    ...encodeCases(dataset),
  ];
}
