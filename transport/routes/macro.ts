// GET /macro: GDP, CPI & PPI and PMI series.

import { dateText } from '../../engine/calendar/date-text.js';
import { MACRO_INDICATORS } from '../../engine/columns.js';
import { queryMacro } from '../../engine/queries/macro.js';
import { integer, optionalOneOf, year } from '../params/declare.js';
import { Problem } from '../problem.js';
import { route } from '../route.js';
import { macroShape } from '../shapes/plain.js';
import { checkRange, clamp } from './lookup.js';

export const macroRoute = route({
  pattern: '/api/v1/macro',
  operationId: 'listMacro',
  summary: 'Macroeconomic series (GDP, CPI & PPI, PMI)',
  description:
    'Rows ordered by indicator (gdp, cpi_ppi, pmi) then date ascending; `data` maps series keys to numbers. In CSV each series key is a column. While rows remain, `Link: <…>; rel="next"` names the next page.',
  tag: 'Macro',
  query: {
    indicator: optionalOneOf(MACRO_INDICATORS, 'One indicator; all when omitted.'),
    start: year('First year (inclusive).'),
    end: year('Last year (inclusive); `start` after `end` is a 400.'),
    limit: integer(
      100,
      1,
      "Rows to return. A larger value is clamped to the plan's rows per call; the response's `limit` shows the value used.",
    ),
    offset: integer(0, 0, 'Rows to skip.'),
  },
  shape: macroShape,
  example: {
    count: 1,
    total: 12,
    limit: 1,
    offset: 0,
    data: [
      {
        indicator: 'gdp',
        date: '2024-12-31',
        data: { GDP_GDP: 1349084, GDP_GDP_YOY: 5.4, GDP_PRIMARY_YOY: 3.5, GDP_SECONDARY_YOY: 5.3, GDP_TERTIARY_YOY: 5 },
      },
    ],
  },
  problems: ['macro_not_ready'],
  auth: true,
  charges: true,
  cacheable: true,
  paged: true,
  handle({ dataset, plan }, p) {
    checkRange(p.start, p.end);
    const limit = clamp(p.limit, plan.rowsPerCall);
    if (!dataset.hasMacro) throw new Problem('macro_not_ready', 'the loaded snapshot holds no macro data');
    const found = queryMacro(dataset.macro, {
      indicator: p.indicator,
      startYear: p.start,
      endYear: p.end,
      offset: p.offset,
      limit,
    });
    const data = found.rows.map((r) => ({ indicator: r.indicator, date: dateText(r.date), data: r.data }));
    const result = { count: data.length, total: found.total, limit, offset: p.offset, data };
    return {
      shape: macroShape,
      result,
      rows: data.length,
      page: { offset: p.offset, count: data.length, total: found.total },
    };
  },
});
