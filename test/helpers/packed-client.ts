// The TypeScript client as its users install it: `npm pack` of clients/typescript, the tarball
// installed into an empty project with its own package.json (its dependencies from the npm cache or
// registry), and `tsc` over files of that project, strict, without skipLibCheck.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { REPO } from './readme-blocks.js';

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL('clients/typescript/', REPO));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const NODE_TYPES = fileURLToPath(new URL('node_modules/@types', REPO));

/** tsc's options for the user's project: strict, no skipLibCheck (the package's own .d.ts are checked). */
export const USER_COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023'],
  strict: true,
  skipLibCheck: false,
  types: ['node'],
  typeRoots: [NODE_TYPES],
  outDir: 'out',
};

export interface UserProject {
  /** The project's folder; the client is in its node_modules/@mdq/client. */
  readonly dir: string;
  /** `tsc` over `files` of the project (emitting into out/ when `emit`); its exit and its output. */
  tsc(files: string[], emit: boolean): Promise<{ ok: boolean; out: string }>;
  cleanup(): Promise<void>;
}

/** Packs the client and installs the tarball into a new empty project. */
export async function packedClientProject(prefix = 'mdq-ts-user-'): Promise<UserProject> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const packed = await run('npm', ['pack', '--pack-destination', dir], { cwd: CLIENT });
  const tarball = packed.stdout.trim().split('\n').at(-1)!;
  assert.equal(tarball, 'mdq-client-0.1.0.tgz');
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2)}\n`,
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], { cwd: dir });
  return {
    dir,
    async tsc(files, emit) {
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: USER_COMPILER_OPTIONS, files }));
      return run(process.execPath, [TSC, '-p', '.', ...(emit ? [] : ['--noEmit'])], { cwd: dir }).then(
        (r) => ({ ok: true, out: r.stdout }),
        (e: { stdout?: string }) => ({ ok: false, out: e.stdout ?? '' }),
      );
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
