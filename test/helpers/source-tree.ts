// The checkout's TypeScript sources as the documentation tests read them: files, and what each imports.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout: this file runs as dist/test/helpers/source-tree.js. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every .ts file under `folder` (relative to the root, `/`-separated). */
export function sources(folder: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${d.name}`;
    if (d.isDirectory()) out.push(...sources(path));
    else if (d.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** `file`'s text with `import type` and `export type` statements left out (they name types only). */
const runtimeText = (file: string): string =>
  readFileSync(join(ROOT, file), 'utf8').replace(/^(import|export) type [^;]*;/gms, '');

/** Every module specifier `file` imports at run time (static `from '…'`, bare `import '…'`, dynamic `import('…')`). */
function specifiersOf(file: string): string[] {
  return [...runtimeText(file).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)].map((m) => m[1]);
}

/**
 * The modules `file` imports at run time that are the project's own, as paths from the root
 * without extension (`engine/kernels/adjust`).
 */
export function importsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((s) => s.startsWith('./') || s.startsWith('../'))
    .map((s) =>
      relative(ROOT, join(ROOT, dirname(file), s))
        .split('\\')
        .join('/')
        .replace(/\.js$/, ''),
    );
}

/** The packages and Node built-ins `file` imports at run time (`node:fs`, `lmdb`, `uWebSockets.js`). */
export function packagesOf(file: string): string[] {
  return specifiersOf(file).filter((s) => !s.startsWith('.'));
}

/** The files of `folders` (and single files) that import a module of the project matching `target`, with the modules. */
export function importing(folders: string[], target: RegExp): string[] {
  return folders
    .flatMap((f) => (f.endsWith('.ts') ? [f] : sources(f)))
    .flatMap((file) =>
      importsOf(file)
        .filter((m) => target.test(m))
        .map((m) => `${file} → ${m}`),
    );
}
