// Why the loader reads CSV with its own line reader: the same file read by it and by csv-parse
// (the well-kept library), cells split and counted, as the loader's first pass does.
//   node dist/bench/micro/csv-reader.js <file.csv> [--rounds 3]

import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import { LineSplitter } from '../../loaders/snapshot/line-splitter.js';
import { splitCells } from '../../loaders/snapshot/split-cells.js';

/** Rows and cells of `file` through LineSplitter + splitCells. */
async function ownReader(file: string): Promise<{ rows: number; cells: number }> {
  let rows = 0;
  let cells = 0;
  const lines = new LineSplitter(64 * 1024, (text) => {
    rows++;
    cells += splitCells(text).length;
  });
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) lines.push(chunk as Buffer);
  lines.end();
  return { rows, cells };
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

export async function compareCsvReaders(file: string, rounds: number): Promise<{ ownSeconds: number; csvParseSeconds: number; rows: number }> {
  const best = { own: Infinity, lib: Infinity };
  let rows = 0;
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    const own = await ownReader(file);
    best.own = Math.min(best.own, (performance.now() - t) / 1000);
    t = performance.now();
    const lib = await csvParse(file);
    best.lib = Math.min(best.lib, (performance.now() - t) / 1000);
    if (own.rows !== lib.rows || own.cells !== lib.cells) throw new Error(`the readers disagree: ${JSON.stringify({ own, lib })}`);
    rows = own.rows;
  }
  return { ownSeconds: best.own, csvParseSeconds: best.lib, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' } } });
  const got = await compareCsvReaders(positionals[0], Number(values.rounds));
  console.log(`${positionals[0]}: ${got.rows.toLocaleString('en-US')} lines; own line reader ${got.ownSeconds.toFixed(2)} s, csv-parse ${got.csvParseSeconds.toFixed(2)} s (${(got.csvParseSeconds / got.ownSeconds).toFixed(1)}× slower)`);
}
