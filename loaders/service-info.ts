// What /version tells of this build: the package's version and the commit of the checkout it runs
// from, read from files at start (no `git` process).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface ServiceInfo {
  version: string;
  /** 12 hex digits of HEAD's commit, or 'unknown' outside a git checkout. */
  commit: string;
}

/** The version in `root`'s package.json and the commit its checkout's HEAD names. */
export function serviceInfo(root: string): ServiceInfo {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, commit: checkoutCommit(root) };
}

/** The commit HEAD names, read from the git folder (a worktree's too): 12 hex digits, or 'unknown'. */
export function checkoutCommit(root: string): string {
  try {
    let git = join(root, '.git');
    if (!statSync(git).isDirectory())
      git = resolve(
        root,
        readFileSync(git, 'utf8')
          .replace(/^gitdir:\s*/, '')
          .trim(),
      ); // a worktree
    const head = readFileSync(join(git, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (ref === undefined) return head.slice(0, 12);
    const common = existsSync(join(git, 'commondir'))
      ? resolve(git, readFileSync(join(git, 'commondir'), 'utf8').trim())
      : git;
    for (const dir of [git, common])
      if (existsSync(join(dir, ref))) return readFileSync(join(dir, ref), 'utf8').trim().slice(0, 12);
    const packed = readFileSync(join(common, 'packed-refs'), 'utf8')
      .split('\n')
      .find((line) => line.endsWith(` ${ref}`));
    return packed === undefined ? 'unknown' : packed.slice(0, 12);
  } catch {
    return 'unknown';
  }
}
