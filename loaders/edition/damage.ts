// A stored file that fails its checks, setting it aside, and a state folder that cannot be served as it is.

import { rename } from 'node:fs/promises';

/** A stored part or edition file that fails its checks: treated as absent (set aside, stored again from the snapshot folder). */
export class DamagedFile extends Error {
  constructor(
    /** The file at fault (a part's data.mdb, an edition.json, current.json). */
    readonly path: string,
    /** What is wrong with it, in a few words. */
    readonly reason: string,
    /** The stored folder it belongs to (a part's, an edition's), what is set aside. */
    readonly folder: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * A state folder that cannot be served as it is: a pointer that cannot be read, a damaged edition
 * with no snapshot folder to store it again from. Its message is one line naming the file; the
 * server and the CLIs exit 2 with it (loaders/config/run-program.ts), as for a bad setting.
 */
export class StateFolderError extends Error {}

/** The suffix of a folder set aside as damaged: no start or store takes it again, pruning deletes it. */
export const DAMAGED_SUFFIX = '.damaged-';

/**
 * Moves a damaged part or edition folder aside (`<folder>.damaged-<ms>`), so that it counts as
 * absent: a store writes the part again, a start stores the edition again. A process that has it
 * open keeps reading its files (the kernel keeps them). Returns the new path, or null when it was
 * gone already (another process set it aside first).
 */
export async function setAside(folder: string): Promise<string | null> {
  const aside = `${folder}${DAMAGED_SUFFIX}${Date.now()}`;
  try {
    await rename(folder, aside);
    return aside;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
