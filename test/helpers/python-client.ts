// The Python client (clients/python) as its users install it on Debian: a fresh copy of the folder in
// a temporary home, installed by the README's own install lines (a venv of Debian's python3 that sees
// its pandas and websockets), run by that venv's python with a Debian user's PATH.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { codeBlocks, REPO } from './readme-blocks.js';

const run = promisify(execFile);
export const PYTHON_CLIENT = fileURLToPath(new URL('clients/python/', REPO));

/** Debian's packages the Python client's tests need (.ci/run installs them). */
const PACKAGES = 'python3 python3-pandas python3-venv python3-pip python3-setuptools python3-wheel python3-websockets';

/** Why Debian's python3 cannot install and run the client here (`modules` missing), or null when it can. */
export function pythonUnavailable(modules: string[]): string | null {
  const probe = spawnSync('/usr/bin/python3', ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8' });
  if (probe.status === 0) return null;
  return `Debian's python3 with ${modules.join(', ')} is missing (apt-get install -y ${PACKAGES}; .ci/run does it): ${probe.stderr.trim().split('\n').at(-1) ?? ''}`;
}

/** The README's install block: the ```sh block that runs pip. */
export function installBlock(readme: string): string {
  const blocks = codeBlocks(readme, 'sh').filter((b) => b.includes('pip install'));
  assert.equal(blocks.length, 1, `${readme} shows one install block`);
  return blocks[0];
}

export interface PythonHome {
  /** The temporary home: clients/python copied in, the venv at .venv. */
  readonly home: string;
  /** The venv's python. */
  readonly python: string;
  /** A Debian user's environment (PATH without other pythons, no PYTHONPATH), plus what was given. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs the README's install lines in the home (as written). */
  install(): Promise<void>;
  cleanup(): Promise<void>;
}

/** A temporary home with a fresh clone's clients/python (without what earlier runs left in the tree). */
export async function pythonHome(prefix: string, env: NodeJS.ProcessEnv = {}): Promise<PythonHome> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  await cp(PYTHON_CLIENT, join(home, 'clients/python'), {
    recursive: true,
    filter: (src) => !/__pycache__|\.egg-info|\/build(\/|$)/.test(src),
  });
  // A Debian user's PATH: `python3` is Debian's (not a python another tool put first).
  const userEnv: NodeJS.ProcessEnv = { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin', ...env };
  delete userEnv.PYTHONPATH;
  return {
    home,
    python: join(home, '.venv/bin/python'),
    env: userEnv,
    async install() {
      await run('bash', ['-euo', 'pipefail', '-c', installBlock('README.md')], { cwd: home, env: userEnv }).catch(
        (error: { stderr?: string; stdout?: string }) =>
          assert.fail(`the install failed:\n${error.stderr ?? ''}${error.stdout ?? ''}`),
      );
    },
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}
