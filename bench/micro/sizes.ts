// Bytes of each answer class in each format, uncompressed and with the service's gzip and br, rendered in-process.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { type Format, FORMAT_NAMES } from '../../transport/answers/formats/index.js';
import { BROTLI_QUALITY, compress, GZIP_LEVEL, MIN_COMPRESSED_BYTES } from '../../transport/serialise/encode.js';
import { bodyOf, offers } from '../cases/answers.js';
import { thousands } from '../cases/case.js';
import { type Question, repliesOf } from '../cases/formats.js';
import { alignedTable } from './table.js';

/** Every format of the registry, in its order. */
export const SIZE_FORMATS: readonly Format[] = FORMAT_NAMES;

/** Body bytes of one answer in one format; null when the shape does not offer the format (CSV of a rowless answer). */
export interface FormatSize {
  identity: number;
  gzip: number;
  br: number;
}

export interface SizeRow {
  name: string;
  path: string;
  /** Rows the answer charges (what `count` says). */
  rows: number;
  sizes: Record<Format, FormatSize | null>;
}

export interface SizeTable {
  brotliQuality: number;
  gzipLevel: number;
  minCompressedBytes: number;
  rows: SizeRow[];
}

/** Each question answered by the server's route, rendered by `render` in every format and compressed by `compress` at the service's levels. */
export function measureSizes(dataset: Dataset, questions: Question[]): SizeTable {
  const rows = repliesOf(dataset, questions).map(({ q, path, reply }): SizeRow => {
    const sizes = {} as Record<Format, FormatSize | null>;
    for (const format of SIZE_FORMATS) {
      if (!offers(reply, format)) {
        sizes[format] = null;
        continue;
      }
      const body = bodyOf(reply, format);
      sizes[format] = { identity: body.length, gzip: compress(body, 'gzip').length, br: compress(body, 'br').length };
    }
    return { name: q.name, path, rows: reply.rows, sizes };
  });
  return { brotliQuality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL, minCompressedBytes: MIN_COMPRESSED_BYTES, rows };
}

const pct = (part: number, whole: number): string => `${Math.round((100 * part) / whole)}%`;

/** One line per answer and format: bytes identity / gzip / br, and each as a share of the answer's uncompressed JSON (the baseline). */
export function formatSizeTable(t: SizeTable): string {
  const lines: string[][] = [];
  for (const r of t.rows) {
    const json = r.sizes.json!.identity;
    SIZE_FORMATS.forEach((format, k) => {
      const s = r.sizes[format];
      const name = k === 0 ? r.name : '';
      const rows = k === 0 ? thousands(r.rows) : '';
      if (s === null) return lines.push([name, rows, format, '–', '–', '–', '–', '–', '–']);
      const small = s.identity < t.minCompressedBytes ? '*' : '';
      lines.push([
        name,
        rows,
        format + (format === 'json' ? ' [baseline]' : ''),
        thousands(s.identity),
        thousands(s.gzip) + small,
        thousands(s.br) + small,
        pct(s.identity, json),
        pct(s.gzip, json),
        pct(s.br, json),
      ]);
    });
  }
  return alignedTable(
    ['answer', 'rows', 'format', 'identity B', 'gzip B', 'br B', 'identity/json', 'gzip/json', 'br/json'],
    lines,
    [0, 2],
  );
}
