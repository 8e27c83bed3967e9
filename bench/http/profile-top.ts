// `node dist/bench/http/profile-top.js FILE.cpuprofile… [--top 25]`: self time by function and by source file, per profile.

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Where a frame's code lives, short: a repo-relative file, a package, or V8's own bucket. */
function place(f: CallFrame): string {
  if (f.url === '')
    return f.functionName.startsWith('(')
      ? f.functionName
      : '(compiled code without a file: new Function, e.g. fast-json-stringify)';
  const path = f.url.startsWith('file://') ? fileURLToPath(f.url) : f.url;
  const pkg = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `pkg ${pkg[1]}`;
  if (path.startsWith('node:')) return path;
  return relative(REPO, path);
}

/** Self milliseconds per key: each sample's delta is charged to the node it landed in. */
function selfTimes(p: CpuProfile, key: (f: CallFrame) => string): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const k = key(byId.get(p.samples[i])!.callFrame);
    out.set(k, (out.get(k) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  return out;
}

function print(title: string, times: Map<string, number>, total: number, top: number): void {
  console.log(`\n${title}`);
  for (const [k, ms] of [...times].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (positionals.length === 0)
  throw new Error(
    'usage: profile-top FILE.cpuprofile… [--top N] (one file per thread: --cpu-prof writes one for each worker too)',
  );
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const total = (profile.endTime - profile.startTime) / 1000;
  const busy = [...selfTimes(profile, (f) => f.functionName)]
    .filter(([k]) => k !== '(idle)')
    .reduce((a, [, v]) => a + v, 0);
  console.log(
    `\nprofile ${file}: ${total.toFixed(0)} ms wall, ${busy.toFixed(0)} ms not idle (shares below are of wall time)`,
  );
  print(
    'self time by function',
    selfTimes(profile, (f) => `${f.functionName || '(anonymous)'}  ${place(f)}${f.url ? `:${f.lineNumber + 1}` : ''}`),
    total,
    Number(values.top),
  );
  print('self time by place', selfTimes(profile, place), total, Number(values.top));
}
