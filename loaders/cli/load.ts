// `npm run load -- <snapshot folder>`: validate and store a snapshot without serving it.

import { exitOnError, startProgram } from '../config/run-program.js';
import { LOAD } from '../config/settings.js';
import { loadSnapshot } from '../load-snapshot.js';

const { values, positionals } = startProgram(LOAD);
try {
  const result = await loadSnapshot(positionals[0], values.state);
  const what = result.unchanged ? 'unchanged, nothing written' : 'stored';
  console.log(`${result.version}: ${result.rows} K-line rows, ${what} in ${result.seconds.toFixed(1)} s`);
} catch (error) {
  exitOnError(LOAD, error); // a rejected snapshot: `load: snapshot rejected: file:line: reason`, exit 1
}
