// Compression level sweep: br quality 1…11 and gzip level 1…9 on cached JSON answers, bytes and µs per compression.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { BROTLI_QUALITY, brotliWindowBits, GZIP_LEVEL } from '../../transport/serialise/encode.js';
import { bodyOf } from '../cases/answers.js';
import { thousands } from '../cases/case.js';
import { type Question, repliesOf } from '../cases/formats.js';
import { measureCase, type MicroOptions } from './measure.js';
import { alignedTable, us } from './table.js';

export const BROTLI_QUALITIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
export const GZIP_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** Shorter than the micro part's: 40 timed compressions, the slowest (br 11) some ms each. */
export const LEVELS_FULL: MicroOptions = { timeMs: 200, warmupMs: 40, minSamples: 12, sampleUs: 500 };
export const LEVELS_QUICK: MicroOptions = { timeMs: 40, warmupMs: 10, minSamples: 5, sampleUs: 500 };

export type Coding = 'br' | 'gzip';

/** `body` compressed as transport/serialise/encode.ts's `compress` does, at `level` instead of its constant. */
export function compressAt(body: Uint8Array, coding: Coding, level: number): Buffer {
  if (coding === 'br')
    return brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: level,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
      },
    });
  return gzipSync(body, { level });
}

export interface LevelPoint {
  coding: Coding;
  level: number;
  bytes: number;
  /** Median and p99 µs per compression. */
  us: number;
  p99Us: number;
  /** The level encode.ts uses now. */
  chosen: boolean;
}

export interface LevelBody {
  name: string;
  path: string;
  identityBytes: number;
  points: LevelPoint[];
}

export interface LevelTable {
  brotliQuality: number;
  gzipLevel: number;
  bodies: LevelBody[];
}

/** Every level of both codings on the JSON body of each question, timed with tinybench; progress per body and coding. */
export async function levelSweep(
  dataset: Dataset,
  questions: Question[],
  o: MicroOptions,
  log: (line: string) => void = () => {},
): Promise<LevelTable> {
  const bodies: LevelBody[] = [];
  for (const { q, path, reply } of repliesOf(dataset, questions)) {
    const body = bodyOf(reply, 'json');
    const points: LevelPoint[] = [];
    for (const [coding, levels, chosen] of [
      ['br', BROTLI_QUALITIES, BROTLI_QUALITY],
      ['gzip', GZIP_LEVELS, GZIP_LEVEL],
    ] as const) {
      log(`levels: ${q.name} (${thousands(body.length)} B), ${coding} ${levels[0]}…${levels.at(-1)}`);
      const fig = await measureCase(
        {
          group: 'levels',
          name: `${q.name} ${coding}`,
          detail: '',
          variants: levels.map((level) => ({ name: String(level), run: () => compressAt(body, coding, level) })),
          baseline: String(chosen),
          answer: (out) => out,
        },
        o,
      );
      for (const [k, level] of levels.entries()) {
        points.push({
          coding,
          level,
          bytes: compressAt(body, coding, level).length,
          us: fig.variants[k].us,
          p99Us: fig.variants[k].p99Us,
          chosen: level === chosen,
        });
      }
    }
    bodies.push({ name: q.name, path, identityBytes: body.length, points });
  }
  return { brotliQuality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL, bodies };
}

/** One line per body, coding and level: bytes (and share of the identity body), µs per compression, and both against the level in use. */
export function formatLevelTable(t: LevelTable): string {
  const rows: string[][] = [];
  for (const b of t.bodies) {
    for (const coding of ['br', 'gzip'] as const) {
      const points = b.points.filter((p) => p.coding === coding);
      const chosen = points.find((p) => p.chosen)!;
      points.forEach((p, k) => {
        rows.push([
          k === 0 ? `${b.name} (${thousands(b.identityBytes)} B)` : '',
          k === 0 ? coding : '',
          String(p.level) + (p.chosen ? ' [in use]' : ''),
          thousands(p.bytes),
          `${((100 * p.bytes) / b.identityBytes).toFixed(1)}%`,
          us(p.us),
          us(p.p99Us),
          `${((100 * p.bytes) / chosen.bytes).toFixed(0)}%`,
          `${(p.us / chosen.us).toFixed(2)}×`,
        ]);
      });
    }
  }
  return alignedTable(
    ['JSON body', 'coding', 'level', 'bytes', 'of identity', 'µs', 'p99 µs', 'bytes vs in use', 'time vs in use'],
    rows,
    [0, 1, 2],
  );
}
