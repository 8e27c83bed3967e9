// Start and end of every command: settings read before any work, --help, and one line (no stack) for an operator's mistake.

import { StateFolderError } from '../edition/damage.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { StateWriteError } from '../state/state-write.js';
import { helpText, readSettings, SettingError, type Values } from './read-settings.js';
import type { Program, Settings } from './settings.js';

/** The settings and arguments of a started program. */
export interface Started<S extends Settings> {
  values: Values<S>;
  positionals: string[];
}

/**
 * Reads and checks `program`'s settings before any work. `--help` prints the help and
 * exits 0; a bad flag, value or argument prints `<name>: <problem>` and exits 2.
 */
export function startProgram<S extends Settings>(
  program: Program<S>,
  argv = process.argv.slice(2),
  env = process.env,
): Started<S> {
  try {
    const reading = readSettings(program, argv, env);
    if (reading.help) {
      process.stdout.write(`${helpText(program)}\n`);
      process.exit(0);
    }
    return { values: reading.values, positionals: reading.positionals };
  } catch (error) {
    if (error instanceof SettingError) fail(program, error.message, 2);
    throw error;
  }
}

/** System errors that come from the machine or the operator's files, not from a bug. */
const OPERATIONAL = new Set([
  'EACCES',
  'EPERM',
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EROFS',
  'ENOSPC',
  'EEXIST',
  'EMFILE',
  'EADDRINUSE',
  'EADDRNOTAVAIL',
]);

/**
 * Ends the process after an error of `program`: a setting or a state folder that cannot be
 * served as it is (exit 2), a rejected snapshot (exit 1, `file:line: reason`), a state folder
 * that refused a write (a full disk) or a system error such as a folder it may not write
 * (exit 1) print one line; anything else is a bug and keeps its stack trace.
 */
export function exitOnError(program: Program, error: unknown): never {
  if (error instanceof SettingError || error instanceof StateFolderError) fail(program, error.message, 2);
  if (error instanceof SnapshotError) fail(program, `snapshot rejected: ${error.message}`, 1);
  if (error instanceof StateWriteError) fail(program, error.message, 1);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (error instanceof Error && code !== undefined && OPERATIONAL.has(code)) fail(program, error.message, 1);
  console.error(error);
  process.exit(1);
}

function fail(program: Program, message: string, code: number): never {
  process.stderr.write(`${program.name}: ${message}\n`);
  process.exit(code);
}
