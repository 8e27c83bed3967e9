// Stores snapshot folders under STATE_DIR and names the one to serve; re-storing is a no-op.

import { mkdir, open as openFile, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readSnapshot, type ReadOptions } from '../snapshot/read-snapshot.js';
import { folderFingerprint } from './fingerprint.js';
import { readMeta } from './from-lmdb.js';
import { currentPointer, envFile, type CurrentPointer, type SnapshotMeta, snapshotsDir, versionDir } from './layout.js';
import { describe, writeSnapshotEnv } from './to-lmdb.js';

export interface StoreResult {
  version: string;
  /** True when the folder's content was already stored: nothing was written. */
  unchanged: boolean;
  /** True when the folder was recognised by its fingerprint alone, without reading it. */
  skippedRead: boolean;
  rows: number;
  seconds: number;
}

/** The pointer to the snapshot to serve, or null before the first load. */
export async function readCurrent(stateDir: string): Promise<CurrentPointer | null> {
  try {
    return JSON.parse(await readFile(currentPointer(stateDir), 'utf8')) as CurrentPointer;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Validates `folder` and stores it as the snapshot to serve. A folder whose files are
 * unchanged since it was stored (same paths, sizes, mtimes) is not read again; one whose
 * content hashes the same as a stored version only moves the pointer. A folder that fails
 * validation throws a SnapshotError and leaves everything stored as it was.
 */
export async function storeSnapshot(folder: string, stateDir: string, options: ReadOptions = {}): Promise<StoreResult> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const source = resolve(folder);
  const fingerprint = await folderFingerprint(source);
  const current = await readCurrent(stateDir);
  if (current !== null && current.fingerprint === fingerprint && current.source === source) {
    const meta = await existingMeta(versionDir(stateDir, current.version));
    if (meta !== null) return { version: current.version, unchanged: true, skippedRead: true, rows: meta.rows, seconds: seconds() };
  }
  const known = await storedWithFingerprint(stateDir, fingerprint, source);
  if (known !== null) {
    // A folder switched back to (a symlink repointed to a stored snapshot): no need to read it.
    await writePointer(stateDir, { version: known.version, source, fingerprint });
    return { version: known.version, unchanged: true, skippedRead: true, rows: known.rows, seconds: seconds() };
  }
  const parsed = await readSnapshot(source, options);
  const version = `${parsed.manifest.id ?? 'snapshot'}.${parsed.contentHash.slice(0, 12)}`;
  const dir = versionDir(stateDir, version);
  const stored = await existingMeta(dir);
  const unchanged = stored !== null && stored.contentHash === parsed.contentHash;
  if (!unchanged) {
    await mkdir(snapshotsDir(stateDir), { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    await writeSnapshotEnv(parsed, describe(parsed, version, fingerprint, source), tmp);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  }
  await writePointer(stateDir, { version, source, fingerprint });
  await prune(stateDir, [version, current?.version]);
  return { version, unchanged, skippedRead: false, rows: parsed.rows, seconds: seconds() };
}

async function existingMeta(dir: string): Promise<Awaited<ReturnType<typeof readMeta>>> {
  try {
    await stat(envFile(dir));
  } catch {
    return null;
  }
  return readMeta(dir);
}

/** A stored version read from the same folder with the same fingerprint, if any is kept. */
async function storedWithFingerprint(stateDir: string, fingerprint: string, source: string): Promise<SnapshotMeta | null> {
  const names = await readdir(snapshotsDir(stateDir)).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith('current.json') || name.includes('.tmp-')) continue;
    const meta = await existingMeta(versionDir(stateDir, name));
    if (meta !== null && meta.fingerprint === fingerprint && meta.source === source && meta.version === name) return meta;
  }
  return null;
}

/** Replaces current.json atomically (write, fsync, rename). */
async function writePointer(stateDir: string, pointer: CurrentPointer): Promise<void> {
  const path = currentPointer(stateDir);
  const tmp = `${path}.tmp-${process.pid}`;
  const file = await openFile(tmp, 'w');
  try {
    await file.writeFile(JSON.stringify(pointer, null, 2) + '\n');
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
}

const STALE_TMP_MS = 60 * 60 * 1000;

/** Keeps the versions named in `keep`; drops other versions and abandoned temporary folders. */
async function prune(stateDir: string, keep: (string | undefined)[]): Promise<void> {
  const root = snapshotsDir(stateDir);
  for (const name of await readdir(root)) {
    if (name === 'current.json' || keep.includes(name) || name.startsWith('current.json')) continue;
    const path = join(root, name);
    const info = await stat(path);
    if (!info.isDirectory()) continue;
    if (name.includes('.tmp-') && Date.now() - info.mtimeMs < STALE_TMP_MS) continue; // maybe another loader's
    await rm(path, { recursive: true, force: true });
  }
}
