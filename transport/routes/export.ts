// GET /{market}/export: K-line rows (or bars) of many symbols, streamed as CSV, Arrow or NDJSON.

import { type ExportQuery, exportRows } from '../../engine/queries/export.js';
import { oneOf, symbolList } from '../params/declare.js';
import { klineFieldsParam } from '../params/fields.js';
import { badParam } from '../problem.js';
import { route } from '../route.js';
import { EXPORT_FORMATS, EXPORT_TYPES, type ExportFormat, ExportStream } from '../serialise/export-stream.js';
import { klinesShape } from '../shapes/klines.js';
import { ADJ, KLINE_WINDOW, PERIOD } from './kline-params.js';
import { checkRange, marketOf, unknownSymbol } from './lookup.js';

/** The attachment's extension: `.arrows` is an Arrow IPC stream's (`.arrow` is the file format's). */
const FILE_EXTENSIONS = { csv: 'csv', arrow: 'arrows', ndjson: 'ndjson' } as const;

/** Symbols one export may name: a market's whole list fits; the request line bounds it anyway. */
const MAX_EXPORT_SYMBOLS = 10_000;

export const exportRoute = route({
  pattern: '/api/v1/:market/export',
  operationId: 'exportKlines',
  summary: 'Whole-history export: K-lines of many symbols, streamed',
  description:
    "K-line rows (or `period` bars) of the named symbols, or of every symbol of the market without `symbols`, in the date range, ordered by symbol then date, streamed as CSV (default), Arrow (an IPC stream, one record batch per symbol, the answer's figures in its metadata) or NDJSON (one JSON row per line), with `Content-Disposition: attachment`. " +
    "Rows per call does not bound it; the daily quota does: the rows are counted before the first byte, an export larger than the key's rows left today is 429 `quota_exhausted` naming the count, and the whole export is charged when it starts (internal keys are unlimited). The answer is sent as the client reads it (memory stays flat whatever its size); a client that goes away ends it. Not compressed, not cached.",
  tag: 'K-lines',
  query: {
    ...KLINE_WINDOW,
    symbols: symbolList(
      false,
      `Symbols to export (codes or the forms the other routes take); every symbol of the market when omitted. At most ${MAX_EXPORT_SYMBOLS}; one that does not exist is a 404.`,
    ),
    fields: klineFieldsParam(
      ['*'],
      'Short codes (o,h,l,c,v,a) or full names, or `*`; default all. symbol, date and adj_factor are always written.',
    ),
    adj: ADJ,
    period: PERIOD,
    format: oneOf(
      EXPORT_FORMATS,
      'csv',
      'csv (`text/csv`), arrow (`application/vnd.apache.arrow.stream`) or ndjson (`application/x-ndjson`).',
    ),
  },
  shape: klinesShape,
  stream: { types: Object.values(EXPORT_TYPES) },
  example: null,
  problems: ['unknown_symbol'],
  auth: true,
  charges: true,
  cacheable: false,
  handle({ dataset, params }, p) {
    const m = marketOf(dataset, params[0]);
    checkRange(p.start, p.end);
    const named = p.symbols === null ? 0 : p.symbols.distinctCount(MAX_EXPORT_SYMBOLS);
    if (named > MAX_EXPORT_SYMBOLS)
      throw badParam('symbols', `${named} symbols, at most ${MAX_EXPORT_SYMBOLS} per export`);
    let symbols: Int32Array;
    if (p.symbols === null) symbols = Int32Array.from({ length: m.symbols.size }, (_, i) => i);
    else {
      const found = new Set<number>();
      for (const text of p.symbols.items()) {
        const i = m.symbols.find(text);
        if (i < 0) throw unknownSymbol(m, text, 'symbols', 'does not exist');
        found.add(i);
      }
      symbols = Int32Array.from([...found].sort((a, b) => a - b));
    }
    const q: ExportQuery = { symbols, start: p.start, end: p.end, period: p.period, adj: p.adj, fields: p.fields };
    const rows = exportRows(m, q);
    const metadata = new Map([
      ['market', m.market],
      ['rows', String(rows)],
      ['fields', JSON.stringify(['symbol', 'date', ...p.fields, 'adj_factor'])],
      ['adj', p.adj],
      ['period', p.period],
    ]);
    const format = p.format as unknown as ExportFormat; // the route's own `format` (route.ts keeps it for a streaming route)
    return {
      shape: klinesShape,
      result: null,
      rows,
      stream: {
        type: EXPORT_TYPES[format],
        filename: `${m.market}-${p.period === 'day' ? 'klines' : `${p.period}ly`}.${FILE_EXTENSIONS[format]}`,
        source: new ExportStream(m, q, format, metadata),
      },
    };
  },
});
