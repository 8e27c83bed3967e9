// The editions stored under STATE_DIR: the pointer to the one to serve, listing, writing, pruning.

import { open as openFile, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type CurrentPointer,
  currentPointer,
  editionDir,
  editionFile,
  type EditionMeta,
  isVersionName,
  partDir,
  partsDir,
  snapshotsDir,
  type StoreMarker,
  storeMarker,
} from './layout.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { DAMAGED_SUFFIX } from './damage.js';
import { editionText, readEditionMetaOrNull, readPointer } from './edition-file.js';
import { folderFingerprint } from './fingerprint.js';
import { openEdition } from './open-edition.js';
import { partFileProblem } from './part-check.js';
import type { StoreResult } from './store-edition.js';

export { readEditionMetaOrNull };

/**
 * The pointer to the edition to serve, or null when there is none (no current.json, or `null` in
 * it). A pointer that cannot be read throws StateFolderError naming the file (edition-file.ts).
 */
export async function readCurrent(stateDir: string): Promise<CurrentPointer | null> {
  return readPointer(stateDir);
}

/** True for a name in snapshots/ that may be an edition's folder (not parts, the pointer, a temporary, a marker, a folder set aside). */
const mayBeEdition = (name: string): boolean =>
  isVersionName(name) && !name.startsWith('.') && !name.includes('.tmp-') && !name.includes(DAMAGED_SUFFIX);

/** Every stored edition of this format whose edition.json passes its checks, newest first. */
export async function storedEditions(stateDir: string): Promise<EditionMeta[]> {
  const names = await readdir(snapshotsDir(stateDir)).catch(() => [] as string[]);
  const metas = names.filter(mayBeEdition).map((n) => readEditionMetaOrNull(stateDir, n));
  return metas.filter((m): m is EditionMeta => m !== null).sort((a, b) => b.storedAt.localeCompare(a.storedAt));
}

/**
 * The edition a start serves without a snapshot folder: the one current.json names, else (no
 * pointer: lost, or `null`) the newest stored one, which the pointer then names. Null for a state
 * folder with no edition stored (the demo is stored then). A pointer that cannot be read throws
 * StateFolderError.
 */
export async function pointedOrNewest(stateDir: string): Promise<CurrentPointer | null> {
  const current = await readCurrent(stateDir);
  if (current !== null) return current;
  const newest = (await storedEditions(stateDir))[0];
  if (newest === undefined) return null;
  const pointer = { version: newest.version, source: newest.source, fingerprint: newest.fingerprint };
  await writePointer(stateDir, pointer);
  return pointer;
}

/**
 * Writes `path` whole: a temporary file, fsync (unless `sync` is false: the caller syncs it before
 * anything durable names it), rename; the temporary is removed when any step fails (a full disk).
 */
async function writeWhole(path: string, text: string, sync = true): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    const file = await openFile(tmp, 'w');
    try {
      await file.writeFile(text);
      if (sync) await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
}

/** Stores edition.json of `meta` (its parts are stored already), with the checksum of its content; `sync` false: `syncEdition` before a pointer names it. */
export async function writeEdition(
  stateDir: string,
  meta: EditionMeta,
  options: { sync?: boolean } = {},
): Promise<void> {
  await mkdir(editionDir(stateDir, meta.version), { recursive: true });
  await writeWhole(editionFile(stateDir, meta.version), editionText(meta), options.sync !== false);
}

/** Forces an edition.json written without sync to disk. */
export async function syncEdition(stateDir: string, version: string): Promise<void> {
  const file = await openFile(editionFile(stateDir, version), 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Replaces current.json atomically. */
export async function writePointer(stateDir: string, pointer: CurrentPointer): Promise<void> {
  await mkdir(snapshotsDir(stateDir), { recursive: true });
  await writeWhole(currentPointer(stateDir), `${JSON.stringify(pointer, null, 2)}\n`);
}

/** True while process `pid` lives (a process of another user counts as alive). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process that writes a temporary (`<name>.tmp-<pid>` or `<name>.tmp-<pid>-<ms>`), or null for another name. */
const temporaryOwner = (name: string): number | null => {
  const m = /\.tmp-(\d+)(?:-\d+)?$/.exec(name);
  return m === null ? null : Number(m[1]);
};

/**
 * Tells pruning what this process's store is about to name (`marker`): its parts once planned, its
 * edition once known. Kept while the process lives; `endStore` removes it.
 */
export async function markStore(stateDir: string, marker: StoreMarker): Promise<void> {
  await mkdir(snapshotsDir(stateDir), { recursive: true });
  await writeFile(storeMarker(stateDir, process.pid), JSON.stringify(marker));
}

/** Removes this process's store marker. */
export async function endStore(stateDir: string): Promise<void> {
  await rm(storeMarker(stateDir, process.pid), { force: true });
}

/** The parts and editions that stores still running (their process alive) are about to name; the markers of ended ones are removed. */
async function liveStores(
  stateDir: string,
): Promise<{ parts: Set<string>; versions: Set<string>; markers: Set<string> }> {
  const out = { parts: new Set<string>(), versions: new Set<string>(), markers: new Set<string>() };
  for (const name of await readdir(snapshotsDir(stateDir)).catch(() => [] as string[])) {
    const m = /^\.store-(\d+)\.json$/.exec(name);
    if (m === null) continue;
    const path = join(snapshotsDir(stateDir), name);
    if (!processAlive(Number(m[1]))) {
      await unlink(path).catch(() => {});
      continue;
    }
    out.markers.add(name);
    try {
      const marker = JSON.parse(await readFile(path, 'utf8')) as StoreMarker;
      for (const part of marker.parts) out.parts.add(part);
      if (marker.version !== null) out.versions.add(marker.version);
    } catch {
      // written this instant (empty so far): it names nothing yet
    }
  }
  return out;
}

/**
 * Keeps the `keep` newest editions (and every one named in `inUse`: served now, or still read
 * by a thread, and the one current.json names), the parts they name, and what a store still
 * running is about to name (its marker, its temporaries); deletes everything else in snapshots/
 * at once, whatever its age: editions beyond KEEP_EDITIONS, parts no kept edition names,
 * temporaries of a store that ended (killed, or failed on a full disk), folders set aside as
 * damaged. Returns the versions deleted.
 */
export async function pruneEditions(stateDir: string, keep: number, inUse: readonly string[] = []): Promise<string[]> {
  const current = await readCurrent(stateDir);
  const editions = await storedEditions(stateDir);
  let stores = await liveStores(stateDir);
  const kept = editions.filter(
    (e, i) => i < keep || e.version === current?.version || inUse.includes(e.version) || stores.versions.has(e.version),
  );
  const deleted: string[] = [];
  for (const e of editions) {
    if (kept.includes(e)) continue;
    await rm(editionDir(stateDir, e.version), { recursive: true, force: true });
    deleted.push(e.version);
  }
  const parts = new Set(kept.flatMap((e) => e.markets.map((m) => m.part)));
  const liveTemporary = (name: string): boolean => {
    const pid = temporaryOwner(name);
    return pid !== null && processAlive(pid);
  };
  for (const name of await readdir(partsDir(stateDir)).catch(() => [] as string[])) {
    if (parts.has(name) || liveTemporary(name)) continue;
    // Read again just before deleting: a store that began since may be about to name this part.
    stores = await liveStores(stateDir);
    if (stores.parts.has(name)) continue;
    await rm(partDir(stateDir, name), { recursive: true, force: true });
  }
  // Anything else in snapshots/ is a deleted edition's leftovers, an ended store's temporary or a folder of an older layout.
  const versions = new Set(kept.map((e) => e.version));
  for (const name of await readdir(snapshotsDir(stateDir)).catch(() => [] as string[])) {
    if (name === 'parts' || name === 'current.json' || liveTemporary(name)) continue;
    if (versions.has(name) || stores.versions.has(name) || stores.markers.has(name)) continue;
    await rm(join(snapshotsDir(stateDir), name), { recursive: true, force: true });
  }
  for (const version of versions)
    for (const name of await readdir(editionDir(stateDir, version)).catch(() => [] as string[]))
      if (temporaryOwner(name) !== null && !liveTemporary(name))
        await rm(join(editionDir(stateDir, version), name), { force: true });
  return deleted;
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
 * An edition one of whose parts fails its structural check is not taken (the store writes the
 * part again). Cheap enough for the serving thread: a stat per named file, two pages per part.
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
    merged: [],
    reused: meta.markets.map((m) => m.market),
  });
  const current = await readCurrent(stateDir);
  const served = current === null ? null : readEditionMetaOrNull(stateDir, current.version);
  if (current !== null && served !== null && current.fingerprint === print && current.source === source)
    return partsSound(stateDir, served) ? result(served) : null;
  const known = (await storedEditions(stateDir)).find((e) => e.fingerprint === print && e.source === source);
  if (known === undefined || !partsSound(stateDir, known)) return null;
  await writePointer(stateDir, { version: known.version, source, fingerprint: print });
  return result(known);
}

/** True when every part `meta` names passes its structural check (part-check.ts). */
export function partsSound(stateDir: string, meta: EditionMeta): boolean {
  return meta.markets.every((m) => partFileProblem(partDir(stateDir, m.part)) === null);
}
