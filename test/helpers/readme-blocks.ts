// The fenced code blocks of a README, as its reader sees them: what the client tests run, so the
// README's examples are the very text tested (no second copy).

import { readFileSync } from 'node:fs';

/** The repository's root, as a path ending in `/`. */
export const REPO = new URL('../../../', import.meta.url);

/** The blocks fenced as `lang` (```python, ```ts, ```sh) in the README at `path` (from the repository root), in order. */
export function codeBlocks(path: string, lang: string): string[] {
  const text = readFileSync(new URL(path, REPO), 'utf8');
  const blocks: string[] = [];
  for (const m of text.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)) if (m[1] === lang) blocks.push(m[2]);
  return blocks;
}

/** The names a block declares at its top level (`const x =`, `x =`): what a test reads back after running it. */
export function topLevelNames(block: string, pattern: RegExp): string[] {
  return [...block.matchAll(pattern)].map((m) => m[1]);
}
