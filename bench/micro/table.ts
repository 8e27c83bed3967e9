// The terminal table of the micro-benchmarks: one row per variant, its speed-up over the case's baseline.

import type { CaseFigure } from './measure.js';

const pad = (text: string, width: number, left: boolean): string => (left ? text.padEnd(width) : text.padStart(width));

/** Three significant digits for µs figures from ns to ms. */
export const us = (x: number): string =>
  x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3);

/** Rows of cells as an aligned table; `left` marks the columns aligned left. */
export function alignedTable(head: string[], rows: string[][], left: number[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((cell, i) => pad(cell, widths[i], left.includes(i))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatMicroTable(figures: CaseFigure[]): string {
  const rows: string[][] = [];
  for (const c of figures) {
    c.variants.forEach((v, k) => {
      const isBase = v.name === c.baseline;
      rows.push([
        k === 0 ? `${c.group}: ${c.name}` : '',
        k === 0 ? c.detail : '',
        v.name + (isBase ? ' [baseline]' : ''),
        us(v.us),
        us(v.p99Us),
        Math.round(1e6 / v.us).toLocaleString('en-US'),
        isBase ? '1.00×' : `${v.speedup >= 100 ? v.speedup.toFixed(0) : v.speedup.toFixed(2)}×`,
      ]);
    });
  }
  return alignedTable(['case', 'input', 'variant', 'median µs', 'p99 µs', 'ops/s', 'vs baseline'], rows, [0, 1, 2]);
}
