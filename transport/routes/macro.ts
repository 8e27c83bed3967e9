// GET /macro: GDP, CPI & PPI and PMI series.

import { dateText } from '../../engine/calendar/date-text.js';
import { MACRO_INDICATORS } from '../../engine/columns.js';
import { queryMacro } from '../../engine/queries/macro.js';
import { Problem } from '../problem.js';
import { integer, optionalOneOf, optionalYear, parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import { checkRange } from './lookup.js';

const PARAMS = { indicator: optionalOneOf(MACRO_INDICATORS), start: optionalYear, end: optionalYear, limit: integer(100, 1), offset: integer(0, 0) };

export const macroRoute: Route = {
  pattern: '/api/v1/macro',
  paramNames: [],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, query }) {
    const p = parseParams(query, PARAMS);
    checkRange(p.start, p.end);
    if (!dataset.hasMacro) throw new Problem('macro_not_ready', 'the loaded snapshot holds no macro data');
    const result = queryMacro(dataset.macro, { indicator: p.indicator, startYear: p.start, endYear: p.end, offset: p.offset, limit: p.limit });
    const data = result.rows.map((r) => ({ indicator: r.indicator, date: dateText(r.date), data: r.data }));
    return { shape: 'macro', value: { count: data.length, total: result.total, limit: p.limit, offset: p.offset, data }, rows: data.length };
  },
};
