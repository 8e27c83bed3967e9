// Parameters shared by the single and batch K-line routes: fields, adjustment, window.

import type { KlineField } from '../../engine/columns.js';
import { projectKlineFields } from '../../engine/kernels/project-fields.js';
import { badParam } from '../problem.js';
import { integer, list, oneOf, optionalDate } from '../params/rules.js';

export const ADJ_MODES = ['bfq', 'qfq', 'hfq'] as const;

export const KLINE_PARAMS = {
  start: optionalDate,
  end: optionalDate,
  fields: list(false),
  adj: oneOf(ADJ_MODES, 'bfq'),
  limit: integer(100, 1),
  offset: integer(0, 0),
};

/** The `fields` list resolved to columns (default when absent), or 400 naming the unknown item. */
export function klineFields(items: string[] | null, fallback: readonly string[]): KlineField[] {
  const projection = projectKlineFields(items ?? fallback);
  if (!projection.ok) throw badParam('fields', `unknown column '${projection.unknown}'`);
  return projection.fields;
}

/** The `fields` array of a response: symbol, date, the selected columns, adj_factor. */
export const fieldNames = (fields: readonly KlineField[]): string[] => ['symbol', 'date', ...fields, 'adj_factor'];
