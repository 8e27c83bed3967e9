// `npm run load -- <snapshot folder>`: validate and store a snapshot without serving it.

import { parseArgs } from 'node:util';
import { loadSnapshot } from '../load-snapshot.js';
import { resolveStateDir } from '../state/state-store.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';

const USAGE = 'usage: npm run load -- <snapshot folder> [--state DIR]';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { state: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const stateDir = resolveStateDir(values.state);
  try {
    const result = await loadSnapshot(positionals[0], stateDir);
    const what = result.unchanged ? 'unchanged, nothing written' : 'stored';
    console.log(`${result.version}: ${result.rows} K-line rows, ${what} in ${result.seconds.toFixed(1)} s`);
    return 0;
  } catch (error) {
    if (error instanceof SnapshotError) {
      console.error(`snapshot rejected: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
