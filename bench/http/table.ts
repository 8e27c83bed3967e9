// The terminal table of a comparison: one row per case and side, the ratio ours/raw beside ours.

import type { CaseResult } from './comparison.js';

const pad = (text: string, width: number, left = false): string => (left ? text.padEnd(width) : text.padStart(width));
const ms = (x: number): string => x.toFixed(3);
const pct = (x: number | null): string => (x === null ? '–' : `${Math.round(x * 100)}%`);

/** Rows: case, side, req/s, p50, p99, p99.9 (ms), non-2xx, socket errors, CPU of server, wrk and others, ratio. */
export function formatTable(cases: CaseResult[]): string {
  const head = [
    'case',
    'server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'p99.9 ms',
    'non-2xx',
    'sock err',
    'srv CPU',
    'wrk CPU',
    'other CPU',
    'body B',
    'ours/raw',
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    for (const side of ['ours', 'raw'] as const) {
      const r = c[side];
      rows.push([
        c.name,
        side + (r.noisy ? '*' : ''),
        Math.round(r.rps).toLocaleString('en-US'),
        ms(r.p50),
        ms(r.p99),
        ms(r.p999),
        String(r.non2xx),
        String(r.errors),
        pct(r.serverCpu),
        pct(r.wrkCpu),
        pct(r.otherCpu),
        String(c.bodyBytes),
        side === 'ours' ? `${(c.ratio * 100).toFixed(1)}%` : '',
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((cell, i) => pad(cell, widths[i], i < 2)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Rows: case, the target rate (half of ours' max), then per side the rate achieved (ours also as a share of its max), p50, p99, p99.9 and non-2xx; whether ours' p99 is under `p99TargetMs`. */
export function formatHalfRateTable(cases: CaseResult[], p99TargetMs: number): string {
  const head = [
    'case',
    'target req/s',
    'ours req/s',
    'of max',
    'p50 ms',
    'p99 ms',
    'p99.9 ms',
    'non-2xx',
    'raw req/s',
    'raw p50',
    'raw p99',
    'raw p99.9',
    `p99 < ${p99TargetMs} ms`,
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    const h = c.halfRate;
    if (h === null) continue;
    const n = (x: number): string => Math.round(x).toLocaleString('en-US');
    rows.push([
      c.name,
      n(h.targetRps),
      n(h.ours.rps) + (h.ours.noisy ? '*' : ''),
      pct(h.ours.rps / c.ours.rps),
      ms(h.ours.p50),
      ms(h.ours.p99),
      ms(h.ours.p999),
      String(h.ours.non2xx),
      n(h.raw.rps) + (h.raw.noisy ? '*' : ''),
      ms(h.raw.p50),
      ms(h.raw.p99),
      ms(h.raw.p999),
      h.ours.p99 < p99TargetMs ? 'yes' : 'NO',
    ]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((cell, i) => pad(cell, widths[i], i < 1)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
