// Issue-2 figures: generate + load the full demo, open the stored snapshot, memory vs raw bytes.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, years: { type: 'string', default: '10' } } });
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mdq-data-path-'));

/** Runs a node script in its own process and returns [seconds, stdout]. */
function timed(script: string, args: string[], nodeFlags: string[] = []): [number, string] {
  const started = performance.now();
  const out = execFileSync(process.execPath, [...nodeFlags, script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return [(performance.now() - started) / 1000, out];
}

try {
  const demo = join(work, 'demo');
  const state = join(work, 'state');
  const [genSeconds] = timed(here('../loaders/demo/cli.js'), ['--out', demo, '--scale', values.scale!, '--years', values.years!]);
  const [loadSeconds, loadOut] = timed(here('../loaders/cli/load.js'), [demo, '--state', state]);
  const [, probeOut] = timed(here('./probe-open.js'), [state], ['--expose-gc']);
  const probe = JSON.parse(probeOut) as { version: string; openSeconds: number; rssBytes: number; rawBytes: number; ratio: number };
  const rows = Number(/(\d+) K-line rows/.exec(loadOut)?.[1] ?? 0);
  const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;
  const lines = [
    ['K-line rows', rows.toLocaleString('en-US'), ''],
    ['generate (s)', genSeconds.toFixed(1), ''],
    ['load (s)', loadSeconds.toFixed(1), ''],
    ['generate + load (s)', (genSeconds + loadSeconds).toFixed(1), 'target < 60'],
    ['open stored snapshot (s)', probe.openSeconds.toFixed(2), 'target < 2'],
    ['RSS of ready Dataset', mb(probe.rssBytes), ''],
    ['raw column bytes', mb(probe.rawBytes), ''],
    ['RSS / raw', probe.ratio.toFixed(2), 'target < 1.5'],
  ];
  console.log(`data path on ${cpus().length} cores, Node ${process.version}, version ${probe.version}`);
  for (const [name, value, target] of lines) console.log(`  ${name.padEnd(26)} ${value.padStart(12)}  ${target}`);
  const results = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  mkdirSync(results, { recursive: true });
  const record = { when: new Date().toISOString(), cores: cpus().length, node: process.version, rows, genSeconds, loadSeconds, ...probe };
  writeFileSync(join(results, 'data-path.json'), JSON.stringify(record, null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
