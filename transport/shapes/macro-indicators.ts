// The macro discovery answer: every indicator with its series keys, units, dates and frequency; schema, JSON, plain value, CSV rows.

import { dateText } from '../../engine/calendar/date-text.js';
import type { MacroIndicatorInfo } from '../../engine/queries/macro-indicators.js';
import { arrayOf, date, int, nullableStr, object, str } from '../schemas/common.js';
import { compileJson } from '../serialise/compile-json.js';
import type { CsvTable, Shape } from './shape.js';

/** The indicators answer's value (JSON, msgpack and FlatBuffers all write this one type). */
export interface MacroIndicatorsValue {
  count: number;
  data: MacroIndicatorValue[];
}

/** One indicator: when and how often it is released, and its series keys. */
export interface MacroIndicatorValue {
  indicator: string;
  frequency: string;
  start: string;
  end: string;
  keys: MacroKeyValue[];
}

export interface MacroKeyValue {
  key: string;
  unit: string | null;
}

export const MACRO_FREQUENCIES = ['monthly', 'quarterly', 'irregular'] as const;

const schema = object({
  count: int,
  data: arrayOf(
    object({
      indicator: str,
      frequency: { type: 'string', enum: [...MACRO_FREQUENCIES] },
      start: { ...date, description: 'First release, YYYY-MM-DD (a period-end day).' },
      end: { ...date, description: 'Last release, YYYY-MM-DD.' },
      keys: arrayOf(
        object({
          key: str,
          unit: { ...nullableStr, description: 'Unit of the series; null when none is documented.' },
        }),
      ),
    }),
  ),
});
const toJson = compileJson(schema);

function indicatorsValue(found: readonly MacroIndicatorInfo[]): MacroIndicatorsValue {
  const data = found.map((f) => ({
    indicator: f.indicator,
    frequency: f.frequency,
    start: dateText(f.start),
    end: dateText(f.end),
    keys: f.keys.map((k) => ({ key: k.key, unit: k.unit })),
  }));
  return { count: data.length, data };
}

export const MACRO_INDICATOR_COLUMNS = ['indicator', 'frequency', 'start', 'end', 'key', 'unit'] as const;

/** In CSV one line per series key, its indicator's columns repeated. */
function indicatorsTable(v: MacroIndicatorsValue): CsvTable {
  return {
    columns: MACRO_INDICATOR_COLUMNS,
    rows: v.data.flatMap((d) => d.keys.map((k) => [d.indicator, d.frequency, d.start, d.end, k.key, k.unit])),
  };
}

export const macroIndicatorsShape: Shape<readonly MacroIndicatorInfo[]> = {
  name: 'macroIndicators',
  schema,
  json: (found) => toJson(indicatorsValue(found)),
  value: indicatorsValue,
  csv: indicatorsTable,
};
