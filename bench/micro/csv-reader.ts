// Why the loader reads CSV with its own line reader: the same file read by the loader's readCsv
// (which also hashes the bytes) and by csv-parse (the well-kept library), every cell counted.
//   node dist/bench/micro/csv-reader.js <file.csv> [--rounds 3]

import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import { DEFAULT_LOAD_LIMITS } from '../../loaders/snapshot/limits.js';
import { readCsv } from '../../loaders/snapshot/read-csv.js';

/** Rows and cells of `file` as the loader reads it (readCsv: lines, cells, the file's sha256). */
async function ownReader(file: string): Promise<{ rows: number; cells: number }> {
  let cells = 0;
  const { rows } = await readCsv(
    { path: file, display: file, limits: DEFAULT_LOAD_LIMITS },
    { header: (names) => (cells += names.length), row: (row) => (cells += row.length) },
  );
  return { rows: rows + 1, cells }; // + 1: csv-parse counts the header as a record
}

/** The same through csv-parse's streaming parser (strict: relax options off). */
async function csvParse(file: string): Promise<{ rows: number; cells: number }> {
  let rows = 0;
  let cells = 0;
  const parser = createReadStream(file, { highWaterMark: 1 << 20 }).pipe(parse({ bom: true }));
  for await (const record of parser) {
    rows++;
    cells += (record as string[]).length;
  }
  return { rows, cells };
}

export async function compareCsvReaders(
  file: string,
  rounds: number,
): Promise<{ ownSeconds: number; csvParseSeconds: number; rows: number }> {
  const best = { own: Infinity, lib: Infinity };
  let rows = 0;
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    const own = await ownReader(file);
    best.own = Math.min(best.own, (performance.now() - t) / 1000);
    t = performance.now();
    const lib = await csvParse(file);
    best.lib = Math.min(best.lib, (performance.now() - t) / 1000);
    if (own.rows !== lib.rows || own.cells !== lib.cells)
      throw new Error(`the readers disagree: ${JSON.stringify({ own, lib })}`);
    rows = own.rows;
  }
  return { ownSeconds: best.own, csvParseSeconds: best.lib, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '3' } },
  });
  const got = await compareCsvReaders(positionals[0], Number(values.rounds));
  console.log(
    `${positionals[0]}: ${got.rows.toLocaleString('en-US')} lines; own line reader ${got.ownSeconds.toFixed(2)} s, csv-parse ${got.csvParseSeconds.toFixed(2)} s (${(got.csvParseSeconds / got.ownSeconds).toFixed(1)}× slower)`,
  );
}
