// In a kernel-pool worker (engine/pool/worker.ts imports it by URL): the editions its tasks name,
// opened by the worker itself, and closed once the main thread no longer serves them.

import type { Dataset } from '../../engine/dataset/dataset.js';
import type { TaskSource } from '../../engine/pool/tasks.js';
import { type EditionRef, type OpenEdition, openEdition } from './open-edition.js';

const opened = new Map<string, OpenEdition>();

/**
 * The Dataset `source` names, opened in this worker the first time. Editions no longer live are
 * closed first: a worker runs one task at a time, and the main thread names an edition no
 * longer live only once no request reads it, so no task of this worker can still read them.
 */
export function datasetOf(source: TaskSource): Dataset {
  for (const [key, edition] of opened) {
    if (key === source.key || source.live.includes(key)) continue;
    opened.delete(key);
    void edition.close();
  }
  let edition = opened.get(source.key);
  if (edition === undefined) {
    const ref = source.ref as EditionRef;
    opened.set(source.key, (edition = openEdition(ref.stateDir, ref.version)));
  }
  return edition.dataset;
}
