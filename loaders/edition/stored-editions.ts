// The editions stored under STATE_DIR: the pointer to the one to serve, listing, writing, pruning.

import { existsSync } from 'node:fs';
import { mkdir, open as openFile, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type CurrentPointer,
  currentPointer,
  editionDir,
  editionFile,
  type EditionMeta,
  FORMAT,
  partsDir,
  snapshotsDir,
} from './layout.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { folderFingerprint } from './fingerprint.js';
import { openEdition, readEditionMeta } from './open-edition.js';
import type { StoreResult } from './store-edition.js';

/** The pointer to the edition to serve, or null before the first load. */
export async function readCurrent(stateDir: string): Promise<CurrentPointer | null> {
  try {
    return JSON.parse(await readFile(currentPointer(stateDir), 'utf8')) as CurrentPointer;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The edition.json of `version`, or null when none of this format is stored under that name. */
export function readEditionMetaOrNull(stateDir: string, version: string): EditionMeta | null {
  if (!existsSync(editionFile(stateDir, version))) return null;
  try {
    return readEditionMeta(stateDir, version);
  } catch {
    return null; // another format, or damaged: read the folder again
  }
}

/** Every stored edition of this format, newest first. */
export async function storedEditions(stateDir: string): Promise<EditionMeta[]> {
  const names = await readdir(snapshotsDir(stateDir)).catch(() => [] as string[]);
  const metas = names
    .filter((n) => !n.includes('.tmp-') && n !== 'parts' && !n.startsWith('current.json'))
    .map((n) => readEditionMetaOrNull(stateDir, n));
  return metas
    .filter((m): m is EditionMeta => m !== null && m.format === FORMAT)
    .sort((a, b) => b.storedAt.localeCompare(a.storedAt));
}

/** Writes `path` whole: a temporary file, fsync, rename. */
async function writeWhole(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  const file = await openFile(tmp, 'w');
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
}

/** Stores edition.json of `meta` (its parts are stored already). */
export async function writeEdition(stateDir: string, meta: EditionMeta): Promise<void> {
  await mkdir(editionDir(stateDir, meta.version), { recursive: true });
  await writeWhole(editionFile(stateDir, meta.version), JSON.stringify(meta));
}

/** Replaces current.json atomically. */
export async function writePointer(stateDir: string, pointer: CurrentPointer): Promise<void> {
  await mkdir(snapshotsDir(stateDir), { recursive: true });
  await writeWhole(currentPointer(stateDir), `${JSON.stringify(pointer, null, 2)}\n`);
}

const STALE_TMP_MS = 60 * 60 * 1000;

/**
 * Keeps the `keep` newest editions (and every one named in `inUse`: served now, or still read
 * by a thread), the parts they name, and temporary folders younger than an hour (maybe another
 * loader's); deletes the rest. Returns the versions deleted.
 */
export async function pruneEditions(stateDir: string, keep: number, inUse: readonly string[] = []): Promise<string[]> {
  const current = await readCurrent(stateDir);
  const editions = await storedEditions(stateDir);
  const kept = editions.filter((e, i) => i < keep || e.version === current?.version || inUse.includes(e.version));
  const deleted: string[] = [];
  for (const e of editions) {
    if (kept.includes(e)) continue;
    await rm(editionDir(stateDir, e.version), { recursive: true, force: true });
    deleted.push(e.version);
  }
  const parts = new Set(kept.flatMap((e) => e.markets.map((m) => m.part)));
  // A part named by no edition yet may be one a store (here or in `npm run load`) is about to name: young ones stay.
  await removeUnlisted(partsDir(stateDir), (name) => parts.has(name), true);
  // Anything else in snapshots/ is a deleted edition's leftovers or a folder of the previous layout (never read).
  const versions = new Set(kept.map((e) => e.version));
  await removeUnlisted(
    snapshotsDir(stateDir),
    (name) => name === 'parts' || name.startsWith('current.json') || versions.has(name),
  );
  return deleted;
}

/** Removes entries of `dir` that `keepName` refuses, but temporary folders (with `youngToo`, any entry) younger than STALE_TMP_MS. */
async function removeUnlisted(dir: string, keepName: (name: string) => boolean, youngToo = false): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (keepName(name)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info === null) continue;
    if ((youngToo || name.includes('.tmp-')) && Date.now() - info.mtimeMs < STALE_TMP_MS) continue;
    await rm(path, { recursive: true, force: true });
  }
}

/**
 * The Dataset of the current stored edition, opened in this thread and never closed (tools and
 * tests that serve one edition for their whole life), or null when none is stored.
 */
export async function openCurrentDataset(stateDir: string): Promise<Dataset | null> {
  const current = await readCurrent(stateDir);
  return current === null ? null : openEdition(stateDir, current.version).dataset;
}

/**
 * The store of a folder recognised by its fingerprint alone (paths, sizes, mtimes), without
 * reading a file: the one served (nothing to do), or another stored edition read from the same
 * folder (a symlink repointed back: the pointer moves to it). Null when the folder must be read.
 * Cheap enough for the serving thread: a stat per named file.
 */
export async function storedByFingerprint(
  stateDir: string,
  folder: string,
  fingerprint?: string,
): Promise<StoreResult | null> {
  const source = resolve(folder);
  const print = fingerprint ?? (await folderFingerprint(source));
  const result = (meta: EditionMeta): StoreResult => ({
    version: meta.version,
    unchanged: true,
    skippedRead: true,
    rows: meta.rows,
    seconds: 0,
    parsed: [],
    reused: meta.markets.map((m) => m.market),
  });
  const current = await readCurrent(stateDir);
  const served = current === null ? null : readEditionMetaOrNull(stateDir, current.version);
  if (current !== null && served !== null && current.fingerprint === print && current.source === source)
    return result(served);
  const known = (await storedEditions(stateDir)).find((e) => e.fingerprint === print && e.source === source);
  if (known === undefined) return null;
  await writePointer(stateDir, { version: known.version, source, fingerprint: print });
  return result(known);
}
