// `npm run load -- <snapshot folder>`: validate and store a snapshot as an edition without serving it.

import { exitOnError, startProgram } from '../config/run-program.js';
import { LOAD } from '../config/settings.js';
import { storeEdition } from '../edition/store-edition.js';
import { pruneEditions } from '../edition/stored-editions.js';
import { startProgress } from '../progress.js';
import { estimateFileRows } from '../snapshot/estimate-rows.js';

const { values, positionals } = startProgram(LOAD);
try {
  let progress: ReturnType<typeof startProgress> | null = null;
  const result = await storeEdition(positionals[0], values.state, {
    onPlan: async (files) =>
      void (
        files.length > 0 &&
        (progress = startProgress(
          'load',
          (await Promise.all(files.map((f) => estimateFileRows(f.path)))).reduce((a, b) => a + b, 0),
        ))
      ),
    onRows: (n) => progress?.add(n),
    prune: { keep: values.keepEditions, inUse: [] },
  });
  (progress as ReturnType<typeof startProgress> | null)?.done();
  // A server may be serving an edition this deletes: it keeps reading the files it has open (the kernel keeps them until closed).
  await pruneEditions(values.state, values.keepEditions);
  const what = result.unchanged
    ? 'unchanged, nothing written'
    : result.parsed.length === 0
      ? 'stored (every market was stored already)'
      : `stored (parsed ${result.parsed.join(', ')})`;
  console.log(`${result.version}: ${result.rows} K-line rows, ${what} in ${result.seconds.toFixed(1)} s`);
} catch (error) {
  exitOnError(LOAD, error); // a rejected snapshot: `load: snapshot rejected: file:line: reason`, exit 1
}
