// The terminal table of a comparison: one row per case and side, the ratio ours/raw beside ours.

import type { CaseResult } from './comparison.js';

const pad = (text: string, width: number, left = false): string => (left ? text.padEnd(width) : text.padStart(width));
const ms = (x: number): string => x.toFixed(3);
const pct = (x: number | null): string => (x === null ? '–' : `${Math.round(x * 100)}%`);

/** Rows: case, side, req/s, p50, p99, p99.9 (ms), non-2xx, socket errors, CPU of server, wrk and others, ratio. */
export function formatTable(cases: CaseResult[]): string {
  const head = ['case', 'server', 'req/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'non-2xx', 'sock err', 'srv CPU', 'wrk CPU', 'other CPU', 'body B', 'ours/raw'];
  const rows: string[][] = [];
  for (const c of cases) {
    for (const side of ['ours', 'raw'] as const) {
      const r = c[side];
      rows.push([
        c.name, side + (r.noisy ? '*' : ''), Math.round(r.rps).toLocaleString('en-US'), ms(r.p50), ms(r.p99), ms(r.p999), String(r.non2xx), String(r.errors),
        pct(r.serverCpu), pct(r.wrkCpu), pct(r.otherCpu), String(c.bodyBytes), side === 'ours' ? `${(c.ratio * 100).toFixed(1)}%` : '',
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((cell, i) => pad(cell, widths[i], i < 2)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
