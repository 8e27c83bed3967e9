// Reads the optional manifest.json of a snapshot folder.

import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Manifest } from './parsed-snapshot.js';
import { SnapshotError } from './snapshot-error.js';

export async function readManifest(path: string, display: string): Promise<{ manifest: Manifest; sha256: string }> {
  const bytes = await readFile(path);
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SnapshotError(display, 0, `invalid JSON: ${(error as Error).message}`);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new SnapshotError(display, 0, 'must be a JSON object');
  }
  const id = (manifest as Manifest).id;
  if (id !== undefined && (typeof id !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(id))) {
    throw new SnapshotError(display, 0, "id: must be 1–64 letters, digits, '.', '-' or '_'");
  }
  return { manifest: manifest as Manifest, sha256: createHash('sha256').update(bytes).digest('hex') };
}
