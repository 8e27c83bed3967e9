// Reads the optional manifest.json of a snapshot folder.

import type { Manifest } from './parsed-snapshot.js';
import { BlockHasher, type FileBlocks, identityOf } from './block-hash.js';
import { readFileBytes } from './file-bytes.js';
import type { FileRef } from './read-csv.js';
import { SnapshotError } from './snapshot-error.js';

export async function readManifest(file: FileRef): Promise<{ manifest: Manifest; blocks: FileBlocks; hash: string }> {
  const { display, limits } = file;
  const chunks: Buffer[] = [];
  let bytes = 0;
  const hasher = new BlockHasher();
  await readFileBytes(file, hasher, (chunk) => {
    bytes += chunk.length;
    if (bytes > limits.maxManifestBytes)
      throw new SnapshotError(display, 0, `larger than ${limits.maxManifestBytes} bytes`);
    chunks.push(Buffer.from(chunk)); // the chunk's memory is reused
  });
  let manifest: unknown;
  try {
    manifest = JSON.parse(Buffer.concat(chunks).toString('utf8'));
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
  const blocks = hasher.done();
  return { manifest: manifest as Manifest, blocks, hash: identityOf(blocks) };
}
