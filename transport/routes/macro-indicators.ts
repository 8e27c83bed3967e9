// GET /macro/indicators: every macro indicator of the snapshot, its series keys with units, its dates and frequency; charges no rows.

import { macroIndicators } from '../../engine/queries/macro-indicators.js';
import { Problem } from '../problem.js';
import { route } from '../route.js';
import { macroIndicatorsShape } from '../shapes/macro-indicators.js';

export const macroIndicatorsRoute = route({
  pattern: '/api/v1/macro/indicators',
  operationId: 'listMacroIndicators',
  summary: 'The macro indicators of the snapshot: series keys, units, dates and frequency',
  description:
    'Every indicator the snapshot holds, in the order of `/macro` (gdp, cpi_ppi, pmi, then any other by name). ' +
    '`keys`: its series keys (the keys of `/macro` rows), the documented ones in their documented order, then any other ascending, each with its `unit`: ' +
    '`GDP_GDP` in 100 million CNY, `GDP_GDP_YOY`, `GDP_PRIMARY_YOY`, `GDP_SECONDARY_YOY` and `GDP_TERTIARY_YOY` in % (year on year); null for every other key (no unit documented). ' +
    '`start` and `end`: its first and last release date (a period-end day, YYYY-MM-DD). ' +
    '`frequency`: `monthly` when every two consecutive releases are one calendar month apart, `quarterly` when every two are three months apart, `irregular` otherwise (and with a single release). ' +
    "In CSV one line per series key, its indicator's columns repeated.",
  tag: 'Macro',
  query: {},
  shape: macroIndicatorsShape,
  example: {
    count: 1,
    data: [
      {
        indicator: 'gdp',
        frequency: 'quarterly',
        start: '2015-03-31',
        end: '2025-03-31',
        keys: [
          { key: 'GDP_GDP', unit: '100 million CNY' },
          { key: 'GDP_GDP_YOY', unit: '%' },
          { key: 'GDP_PRIMARY_YOY', unit: '%' },
          { key: 'GDP_SECONDARY_YOY', unit: '%' },
          { key: 'GDP_TERTIARY_YOY', unit: '%' },
        ],
      },
    ],
  },
  problems: ['macro_not_ready'],
  auth: true,
  charges: false, // a listing of what there is: no rows, so it is also served with no rows left today
  cacheable: true,
  handle({ dataset }) {
    if (!dataset.hasMacro) throw new Problem('macro_not_ready', 'the loaded snapshot holds no macro data');
    return { shape: macroIndicatorsShape, result: macroIndicators(dataset.macro), rows: 0 };
  },
});
