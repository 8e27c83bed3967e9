// The macro discovery answer: every indicator with its series keys, units, dates and frequency; schema, JSON, plain value, CSV rows.

import { dateText } from '../../engine/calendar/date-text.js';
import type { MacroIndicatorInfo } from '../../engine/queries/macro-indicators.js';
import { arrayOf, date, int, nullableStr, object, str } from '../schemas/common.js';
import { compileJson } from '../serialise/compile-json.js';
import type { CsvTable, Shape } from './shape.js';
import { addOffset, addUint32, builder, layout, type Offset, offsets, text } from '../serialise/flatbuffer-kit.js';

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
  table: 'MacroIndicators',
  flatbuffer: macroIndicatorsTable,
  schema,
  json: (found) => toJson(indicatorsValue(found)),
  value: indicatorsValue,
  csv: indicatorsTable,
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const MACRO_KEY = layout(['key', 'unit']);
const MACRO_INDICATOR = layout(['indicator', 'frequency', 'start', 'end', 'keys']);
const MACRO_INDICATORS = layout(['count', 'data']);

function macroKeyTable(k: MacroKeyValue): Offset {
  const [key, unit] = [text(k.key), text(k.unit)];
  builder.startObject(MACRO_KEY.size);
  addOffset(MACRO_KEY.at.key, key);
  addOffset(MACRO_KEY.at.unit, unit);
  return builder.endObject();
}

function macroIndicatorTable(d: MacroIndicatorValue): Offset {
  const [indicator, frequency, start, end] = [text(d.indicator), text(d.frequency), text(d.start), text(d.end)];
  const keys = offsets(d.keys.map(macroKeyTable));
  const at = MACRO_INDICATOR.at;
  builder.startObject(MACRO_INDICATOR.size);
  addOffset(at.indicator, indicator);
  addOffset(at.frequency, frequency);
  addOffset(at.start, start);
  addOffset(at.end, end);
  addOffset(at.keys, keys);
  return builder.endObject();
}

function macroIndicatorsTable(v: MacroIndicatorsValue): Offset {
  const data = offsets(v.data.map(macroIndicatorTable));
  builder.startObject(MACRO_INDICATORS.size);
  addUint32(MACRO_INDICATORS.at.count, v.count);
  addOffset(MACRO_INDICATORS.at.data, data);
  return builder.endObject();
}
