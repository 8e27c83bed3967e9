// The calendar answer: a page of a market's trading days; schema, JSON, plain value, CSV rows.

import { dateText } from '../../engine/calendar/date-text.js';
import type { Market } from '../../engine/markets.js';
import { arrayOf, date, int, object } from '../schemas/common.js';
import { market } from '../schemas/rows.js';
import { compileJson } from '../serialise/compile-json.js';
import { type PageValue, rowsOf, type Shape } from './shape.js';
import { addOffset, addPage, builder, layout, type Offset, text, texts } from '../serialise/flatbuffer-kit.js';

/** A page of the market's calendar as the engine found it. */
export interface CalendarResult {
  market: Market;
  /** The page's days (days since epoch), ascending: a view of the market's memoised calendar. */
  days: Int32Array;
  /** Days in the requested window before limit and offset. */
  total: number;
  limit: number;
  offset: number;
}

/** The calendar answer's value (JSON, msgpack and FlatBuffers all write this one type). */
export interface CalendarValue extends PageValue {
  market: string;
  data: CalendarDayValue[];
}

/** One trading day (a type, not an interface: `rowsOf` reads it as a record). */
export type CalendarDayValue = { date: string };

const schema = object({ market, total: int, count: int, limit: int, offset: int, data: arrayOf(object({ date })) });
const toJson = compileJson(schema);

function calendarValue(r: CalendarResult): CalendarValue {
  const data = Array.from(r.days, (day) => ({ date: dateText(day) }));
  return { market: r.market, total: r.total, count: data.length, limit: r.limit, offset: r.offset, data };
}

export const calendarShape: Shape<CalendarResult> = {
  name: 'calendar',
  table: 'Calendar',
  flatbuffer: calendarTable,
  schema,
  json: (r) => toJson(calendarValue(r)),
  value: calendarValue,
  csv: (v: CalendarValue) => rowsOf(v.data, ['date']),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const CALENDAR = layout(['market', 'total', 'count', 'limit', 'offset', 'dates']);

/** The calendar's rows as one vector of their dates. */
function calendarTable(v: CalendarValue): Offset {
  const [market, dates] = [text(v.market), texts(v.data.map((d) => d.date))];
  const at = CALENDAR.at;
  builder.startObject(CALENDAR.size);
  addOffset(at.market, market);
  addPage(at, v);
  addOffset(at.dates, dates);
  return builder.endObject();
}
