// Data-path figures: generate + load the full demo (time, peak RSS), open the stored snapshot,
// memory vs raw bytes; and the loader's time and peak RSS on large hostile snapshots it must refuse.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeHostileSnapshots } from './hostile-snapshots.js';
import { compareCsvReaders } from './micro/csv-reader.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    years: { type: 'string', default: '10' },
    // The hostile cases' sizes: the expanded bytes of the gzip bomb and the unterminated line.
    'bomb-gib': { type: 'string', default: '3' },
    'line-mib': { type: 'string', default: '400' },
  },
});
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mdq-data-path-'));

/** Runs a node script in its own process and returns [seconds, stdout]. */
function timed(script: string, args: string[], nodeFlags: string[] = []): [number, string] {
  const started = performance.now();
  const out = execFileSync(process.execPath, [...nodeFlags, script, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return [(performance.now() - started) / 1000, out];
}

/** `npm run load`'s process on `folder`: seconds, peak RSS (bytes), exit status and output. */
function load(folder: string, state: string): { seconds: number; peakRss: number; status: number | null; out: string } {
  const rssFile = join(work, 'peak-rss');
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ['--import', here('./peak-rss.js'), here('../loaders/cli/load.js'), folder, '--state', state],
    {
      encoding: 'utf8',
      env: { ...process.env, MDQ_PEAK_RSS_FILE: rssFile },
      maxBuffer: 1 << 24,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    peakRss: Number(readFileSync(rssFile, 'utf8')),
    status: run.status,
    out: `${run.stdout}${run.stderr}`.trim(),
  };
}

try {
  const demo = join(work, 'demo');
  const state = join(work, 'state');
  const [genSeconds] = timed(here('../loaders/demo/cli.js'), [
    '--out',
    demo,
    '--scale',
    values.scale!,
    '--years',
    values.years!,
  ]);
  const loaded = load(demo, state);
  if (loaded.status !== 0) throw new Error(`the demo did not load: ${loaded.out}`);
  const [loadSeconds, loadOut] = [loaded.seconds, loaded.out];
  const [, probeOut] = timed(here('./probe-open.js'), [state], ['--expose-gc']);
  const probe = JSON.parse(probeOut) as {
    version: string;
    openSeconds: number;
    rssBytes: number;
    rawBytes: number;
    ratio: number;
  };
  const rows = Number(/(\d+) K-line rows/.exec(loadOut)?.[1] ?? 0);
  const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;
  // Why the loader has its own CSV line reader: the largest file read by it and by csv-parse.
  const csvFile = join(demo, 'ashare/klines.csv');
  const csv = await compareCsvReaders(csvFile, 1);
  const lines = [
    ['K-line rows', rows.toLocaleString('en-US'), ''],
    ['generate (s)', genSeconds.toFixed(1), ''],
    ['load (s)', loadSeconds.toFixed(1), ''],
    ['load peak RSS', mb(loaded.peakRss), ''],
    ['generate + load (s)', (genSeconds + loadSeconds).toFixed(1), 'target < 60'],
    ['open stored snapshot (s)', probe.openSeconds.toFixed(2), 'target < 2'],
    ['RSS of ready Dataset', mb(probe.rssBytes), ''],
    ['raw column bytes', mb(probe.rawBytes), ''],
    ['RSS / raw', probe.ratio.toFixed(2), 'target < 1.5'],
    ['load peak RSS / raw', (loaded.peakRss / probe.rawBytes).toFixed(2), 'bound: 2× + 256 MB'],
    [`read ashare/klines.csv (${(csv.rows / 1e6).toFixed(1)}M lines)`, '', ''],
    ['  own line reader (s)', csv.ownSeconds.toFixed(2), ''],
    ['  csv-parse (s)', csv.csvParseSeconds.toFixed(2), `${(csv.csvParseSeconds / csv.ownSeconds).toFixed(1)}× slower`],
  ];
  console.log(`data path on ${cpus().length} cores, Node ${process.version}, version ${probe.version}`);
  for (const [name, value, target] of lines) console.log(`  ${name.padEnd(36)} ${value.padStart(12)}  ${target}`);

  // Hostile snapshots: each must be refused with its file:line, in time linear in what was read
  // and memory bounded by the loader's limits, leaving the stored snapshot as it was.
  const hostile = [];
  const cases = await writeHostileSnapshots(
    join(work, 'hostile'),
    Number(values['bomb-gib']) * 2 ** 30,
    Number(values['line-mib']) * 2 ** 20,
  );
  console.log('\nhostile snapshots (npm run load; each must be refused)');
  console.log(
    `  ${'case'.padEnd(30)} ${'file'.padStart(9)} ${'time (s)'.padStart(9)} ${'peak RSS'.padStart(9)}  answer`,
  );
  for (const c of cases) {
    const got = load(c.folder, state);
    const file = execFileSync('du', ['-sb', c.folder], { encoding: 'utf8' }).split('\t')[0];
    const refused = got.status === 1 && c.expect.test(got.out);
    const answer = got.out.split('\n').pop()!;
    console.log(
      `  ${c.name.padEnd(30)} ${mb(Number(file)).padStart(9)} ${got.seconds.toFixed(2).padStart(9)} ${mb(got.peakRss).padStart(9)}  ${refused ? '' : 'NOT REFUSED AS EXPECTED: '}${answer}`,
    );
    hostile.push({
      name: c.name,
      fileBytes: Number(file),
      seconds: got.seconds,
      peakRss: got.peakRss,
      status: got.status,
      answer,
      refused,
    });
  }
  const after = JSON.parse(readFileSync(join(state, 'snapshots/current.json'), 'utf8')) as { version: string };
  console.log(
    `  stored snapshot afterwards: ${after.version === probe.version ? 'unchanged' : `CHANGED to ${after.version}`}`,
  );
  const results = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  mkdirSync(results, { recursive: true });
  const record = {
    when: new Date().toISOString(),
    cores: cpus().length,
    node: process.version,
    rows,
    genSeconds,
    loadSeconds,
    loadPeakRss: loaded.peakRss,
    csvReaders: csv,
    ...probe,
    hostile,
  };
  writeFileSync(join(results, 'data-path.json'), `${JSON.stringify(record, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
