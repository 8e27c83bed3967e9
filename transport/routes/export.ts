// GET /{market}/export: K-line rows (or bars) of many symbols, streamed as CSV, Arrow or NDJSON.

import { type ExportQuery, exportRows } from '../../engine/queries/export.js';
import { acceptNegotiator } from '../http/negotiate.js';
import { optionalOneOf, symbolList } from '../params/declare.js';
import { klineFieldsParam } from '../params/fields.js';
import { badParam, Problem } from '../problem.js';
import { route } from '../route.js';
import { EXPORT_FORMATS, EXPORT_TYPES, type ExportFormat, ExportStream } from '../serialise/export-stream.js';
import { klinesShape } from '../shapes/klines.js';
import { ADJ, KLINE_WINDOW, PERIOD } from './kline-params.js';
import { checkRange, marketOf, unknownSymbol } from './lookup.js';

/** The attachment's extension: `.arrows` is an Arrow IPC stream's (`.arrow` is the file format's). */
const FILE_EXTENSIONS = { csv: 'csv', arrow: 'arrows', ndjson: 'ndjson' } as const;

/** Symbols one export may name: a market's whole list fits; the request line bounds it anyway. */
const MAX_EXPORT_SYMBOLS = 10_000;

/** The export's formats as `Accept` chooses among them: CSV first (no Accept, or `*\/*`), then Arrow, then NDJSON. */
const exportFormatOf = acceptNegotiator(
  EXPORT_FORMATS.map((name) => ({ name, mediaTypes: [EXPORT_TYPES[name].split(';')[0]] })),
);

export const exportRoute = route({
  pattern: '/api/v1/:market/export',
  operationId: 'exportKlines',
  summary: 'Whole-history export: K-lines of many symbols, streamed',
  description:
    "K-line rows (or `period` bars) of the named symbols, or of every symbol of the market without `symbols`, in the date range, ordered by symbol then date, streamed as CSV (default), Arrow (an IPC stream, one record batch per symbol, the answer's figures in its metadata) or NDJSON (one JSON row per line), with `Content-Disposition: attachment`. " +
    'The format: `format=`, else `Accept` (`text/csv`, `application/vnd.apache.arrow.stream`, `application/x-ndjson`; CSV for no `Accept` or `*/*`; 406 when none is acceptable). ' +
    "Rows per call does not bound it, nor the daily row quota: it draws on the plan's daily export allowance (`export_quota` in `/quota`; none on the free plan: 403 `not_in_plan`). The rows are counted before the first byte: an export larger than the allowance left today is 429 `export_quota_exhausted` naming both counts, and the whole export is charged to the allowance when it starts (internal keys are unlimited). The answer is sent as the client reads it (memory stays flat whatever its size); a client that goes away ends it. Not compressed, not cached.",
  tag: 'Bulk data',
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
    format: optionalOneOf(
      EXPORT_FORMATS,
      'csv (`text/csv`), arrow (`application/vnd.apache.arrow.stream`) or ndjson (`application/x-ndjson`); wins over `Accept`, which chooses when it is absent (CSV for no `Accept` or `*/*`).',
    ),
  },
  shape: klinesShape,
  stream: { types: Object.values(EXPORT_TYPES), formatOf: exportFormatOf },
  example: null,
  problems: ['unknown_symbol', 'not_in_plan', 'export_quota_exhausted', 'too_many_exports'],
  auth: true,
  // Not the row quota: the export allowance, charged whole before the first byte (lifecycle/data-exchange.ts).
  charges: false,
  cacheable: false,
  handle({ dataset, params, plan }, p) {
    if (plan.exportRows === 0)
      throw new Problem(
        'not_in_plan',
        `exports are not in the ${plan.name} plan (its export allowance is 0 rows a day); K-lines, cross-sections and batches are`,
      );
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
    const format = p.format as unknown as ExportFormat; // the route's own `format`, or Accept's choice (lifecycle/data-exchange.ts parse)
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
