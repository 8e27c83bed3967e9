// This build against another (a checkout of an earlier commit, built) in one run, on many distinct
// requests per case: both servers pinned to the same core, wrk on the other, rounds alternating
// between them, so a change's cost is a ratio taken under the same conditions.
//
//   node dist/bench/http/versus.js --base DIR --base-state DIR --state DIR [--snapshot DIR]
//                                  [--seconds 5] [--rounds 6] [--uncached] [--cases 'name,…']
//                                  [--base-env NAME=VALUE,…] [--base-main FILE]
//
// The cases are the HTTP bench's varied ones (bench/http/cases.ts VARIED_CASES, QUERY_CASES and
// FIRST_ASK_CASES): 1,000 distinct requests each, K-lines and the screen in every format and
// encoding, detail and detail batches, search, batches of a day, the cross-section, monthly bars,
// K-lines named by an alias, the latest 20 rows, qfq.
//
// DIR is the other checkout (its dist/ built); each build gets its own state folder (the stored
// layout may differ between them). --uncached sets RESPONSE_CACHE_MB=0 on both: every answer is
// rendered (the cold path); by default answers are cached after a warm-up (the warm path).
// --base-env sets settings on the base alone: with --base this checkout, one setting's cost
// (e.g. `--base-env METRICS=0`: what recording metrics costs a request) in the same way.
// --base-main runs FILE as the base's server instead of DIR's dist/main.js: e.g.
// dist/bench/http/bare-server.js, the floor of each first ask (`--uncached` and the first-ask cases:
// what the service's pipeline costs on each, beside what the answer itself costs). It serves the
// edition its state folder holds (it loads no snapshot): give it a state the service has loaded.
// Before timing a case against it, a sample of the case's paths must get the same body from both.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FIRST_ASK_CASES, QUERY_CASES, VARIED_CASES } from './cases.js';
import { caseContext } from './comparison.js';
import { stopAll } from './children.js';
import { httpGet } from './http-get.js';
import { choosePinning } from './pinning.js';
import { DEMO_SNAPSHOT, internalKey, REPO, type RunningServer, startOurServer } from './servers.js';
import { runWrk } from './wrk.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    'base-state': { type: 'string' },
    state: { type: 'string' },
    snapshot: { type: 'string', default: DEMO_SNAPSHOT },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '32' },
    uncached: { type: 'boolean', default: false },
    cases: { type: 'string' },
    'base-env': { type: 'string' },
    'base-main': { type: 'string' },
  },
  strict: true,
});
for (const name of ['base', 'base-state', 'state'] as const)
  if (values[name] === undefined) throw new Error(`--${name} DIR is required`);
const log = (line: string): void => console.error(`[versus] ${line}`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const pin = choosePinning();
  const baseRoot = resolve(values.base!);
  const env: Record<string, string> = values.uncached ? { RESPONSE_CACHE_MB: '0' } : {};
  const baseEnv: Record<string, string> = { ...env };
  for (const pair of values['base-env']?.split(',') ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--base-env takes NAME=VALUE pairs, not ${pair}`);
    baseEnv[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  const snapshotDir = resolve(values.snapshot!);
  const sides: { label: string; server: RunningServer; key: string }[] = [];
  for (const [label, root, state] of [
    ['this build', null, values.state!],
    ['base', baseRoot, values['base-state']!],
  ] as const) {
    const stateDir = resolve(state);
    const key = await internalKey(stateDir, log, root);
    log(`starting ${label} (state ${stateDir})`);
    const server = await startOurServer({
      stateDir,
      snapshotDir,
      core: pin.serverCore,
      env: root === null ? env : baseEnv,
      log,
      main: root === null ? undefined : resolve(values['base-main'] ?? join(root, 'dist/main.js')),
    });
    sides.push({ label, server, key });
  }
  const ctx = await caseContext(sides[0].server.port, 'ashare', sides[0].key);
  const only = values.cases?.split(',').map((n) => n.trim());
  const every = [...VARIED_CASES, ...QUERY_CASES, ...FIRST_ASK_CASES];
  const all = every.filter((c, i) => every.findIndex((d) => d.name === c.name) === i);
  const cases = all.filter((c) => only === undefined || only.includes(c.name));
  if (cases.length === 0) throw new Error(`no case named ${values.cases}; cases: ${all.map((c) => c.name).join(', ')}`);
  if (values['base-main'] !== undefined)
    for (const c of cases) await sameBodies(c.name, c.paths!(ctx), sides, c.headers ?? {});
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const rows: string[] = [];
  const result: Record<string, unknown> = {};
  for (const c of cases) {
    const { name } = c;
    const list = c.paths!(ctx);
    const run = (side: (typeof sides)[number], s: number) =>
      runWrk({
        url: `http://127.0.0.1:${side.server.port}${list[0]}`,
        connections: Number(values.connections),
        seconds: s,
        core: pin.loadCore,
        headers: { 'x-api-key': side.key, ...c.headers },
        paths: list,
      });
    for (const side of sides) await run(side, 2); // warm-up: pages touched, answers cached
    const rps: Record<string, number[]> = { 'this build': [], base: [] };
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        const w = await run(side, seconds);
        if (w.non2xx > 0 || w.errors > 0)
          throw new Error(`${side.label} ${name}: ${w.non2xx} non-2xx answers, ${w.errors} socket errors`);
        rps[side.label].push(w.rps);
        log(`${name} / ${side.label} round ${r + 1}: ${Math.round(w.rps)} req/s`);
      }
    }
    const ratios = rps['this build'].map((x, i) => x / rps.base[i]);
    result[name] = { rps, ratios };
    rows.push(
      `| ${name} | ${list.length} | ${Math.round(median(rps['this build'])).toLocaleString('en-US')} | ${Math.round(median(rps.base)).toLocaleString('en-US')} | ${(median(ratios) * 100).toFixed(1)} % | ${ratios.map((x) => (x * 100).toFixed(0)).join(' / ')} |`,
    );
  }
  await stopAll();
  console.log(
    `This build against ${baseRoot}${values['base-env'] === undefined ? '' : ` with ${values['base-env']}`} (${values.uncached ? 'RESPONSE_CACHE_MB=0: every answer rendered' : 'answers cached after a warm-up'}; ${pin.note}; ${rounds} alternating rounds of ${seconds} s, medians)`,
  );
  console.log(
    '| case | distinct requests | this build req/s | base req/s | this / base | per round (%) |\n|---|---|---|---|---|---|',
  );
  for (const row of rows) console.log(row);
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(
    join(REPO, 'bench/results/versus-latest.json'),
    JSON.stringify({ base: baseRoot, uncached: values.uncached, result }, null, 2),
  );
}

/**
 * Throws unless both sides answer 200 with the same body to every 100th of `paths` (a floor that
 * answered other bytes would measure another answer).
 */
async function sameBodies(
  name: string,
  paths: string[],
  sides: { label: string; server: RunningServer; key: string }[],
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  for (let i = 0; i < paths.length; i += 100) {
    const [ours, base] = await Promise.all(
      sides.map((s) => httpGet(`http://127.0.0.1:${s.server.port}${paths[i]}`, { 'x-api-key': s.key, ...headers })),
    );
    if (ours.status !== 200 || base.status !== 200 || !ours.body.equals(base.body))
      throw new Error(
        `${name}: GET ${paths[i]} answered ${ours.status} (${ours.body.length} bytes) here and ${base.status} (${base.body.length} bytes) from --base-main: not the same answer`,
      );
  }
  log(`${name}: the base answers ${Math.ceil(paths.length / 100)} sampled paths with the same bodies`);
}

process.on('SIGINT', () => void stopAll().finally(() => process.exit(130)));
await main().catch(async (error: unknown) => {
  console.error(`[versus] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await stopAll();
  process.exitCode = 2;
});
