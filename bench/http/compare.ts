// `node dist/bench/http/compare.js`: our server vs a raw uWS server with the same body, under wrk; table + JSON.
// Flags: --seconds 10 --warmup 3 --rounds 3 --retries 3 --connections 32 --snapshot DIR --state DIR --out FILE --cpu-prof-dir DIR

import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stopAll } from './children.js';
import { DEFAULT_CASES } from './cases.js';
import { runComparison } from './comparison.js';
import { DEMO_SNAPSHOT, REPO } from './servers.js';
import { formatTable } from './table.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    retries: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    snapshot: { type: 'string', default: DEMO_SNAPSHOT },
    state: { type: 'string', default: '/tmp/mdq-http-bench-state' },
    out: { type: 'string', default: join(REPO, 'bench/results/http-compare.json') },
    'cpu-prof-dir': { type: 'string' },
  },
  strict: true,
});

function whole(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got '${text}'`);
  return n;
}

const log = (line: string): void => console.error(`[http-bench] ${line}`);
// Ctrl-C: stop our children by PID before leaving, never leave a loaded server behind.
process.on('SIGINT', () => void stopAll().finally(() => process.exit(130)));
process.on('SIGTERM', () => void stopAll().finally(() => process.exit(143)));

try {
  const profileDir = values['cpu-prof-dir'] === undefined ? undefined : resolve(values['cpu-prof-dir']);
  const result = await runComparison({
    cases: DEFAULT_CASES,
    seconds: whole('seconds', values.seconds, 1),
    warmupSeconds: whole('warmup', values.warmup, 0),
    rounds: whole('rounds', values.rounds, 1),
    retries: whole('retries', values.retries, 0),
    maxOtherCpu: 0.15, // cores' worth: a shared machine's other tenants above this skew one side
    connections: whole('connections', values.connections, 1),
    snapshotDir: resolve(values.snapshot),
    stateDir: resolve(values.state),
    outFile: resolve(values.out),
    serverNodeArgs: profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir],
    log,
    command: ['node', 'dist/bench/http/compare.js', ...process.argv.slice(2)].join(' '),
  });
  console.log(
    `\nHTTP: ours vs raw uWS, same body bytes — ${result.loadTool.version}, -t1 -c${result.loadTool.connections}, keep-alive, ${result.loadTool.seconds} s per side × ${result.loadTool.rounds} alternating rounds (median shown) after ${result.loadTool.warmupSeconds} s warm-up`,
  );
  const busy =
    result.machine.busyBefore === null ? '' : `, ${Math.round(result.machine.busyBefore * 100)}% busy before the run`;
  console.log(
    `machine: ${result.machine.cores} cores (${result.machine.cpuModel})${busy}, Node ${result.machine.node}; ${result.pinning.note}`,
  );
  console.log(formatTable(result.cases));
  if (result.cases.some((c) => c.ours.noisy || c.raw.noisy))
    console.log(
      '* other processes used > 15% of a core during that measurement even after retries: treat it with care',
    );
  for (const c of result.cases)
    console.log(`${c.name}: ratio per round ${c.rounds.map((r) => `${(r.ratio * 100).toFixed(1)}%`).join(', ')}`);
  console.log(
    `wrk -R (fixed-rate mode): ${result.loadTool.rateFlag ? 'supported' : 'not supported by this wrk build (the harness approximates a rate with a Lua delay())'}`,
  );
  if (profileDir !== undefined) console.log(`our server's CPU profile: ${profileDir}`);
  console.log(`JSON: ${values.out}`);
} catch (err) {
  log(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
