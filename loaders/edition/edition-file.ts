// edition.json and current.json as text: written with their checks, read strictly (a damaged or edited
// file is told apart, named, never followed outside the state folder).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DamagedFile, StateFolderError } from './damage.js';
import {
  type CurrentPointer,
  currentPointer,
  editionDir,
  type EditionFile,
  editionFile,
  type EditionMeta,
  FORMAT,
  isVersionName,
} from './layout.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** edition.json's text for `meta`: the meta and the checksum of its JSON text. */
export function editionText(meta: EditionMeta): string {
  const { checksum: _drop, ...plain } = meta as EditionFile;
  return JSON.stringify({ ...plain, checksum: sha256(JSON.stringify(plain)) } satisfies EditionFile);
}

/**
 * The edition.json of `version`, checked: JSON, of this format, its checksum equal to its
 * content's, naming itself. Throws DamagedFile saying what is wrong (missing included).
 */
export function readEditionMeta(stateDir: string, version: string): EditionMeta {
  const path = editionFile(stateDir, version);
  const damaged = (reason: string): DamagedFile => new DamagedFile(path, reason, editionDir(stateDir, version));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw damaged(code === 'ENOENT' ? 'missing' : `cannot be read (${code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw damaged(`not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw damaged('not a JSON object');
  const { checksum, ...meta } = value as EditionFile;
  if (meta.format !== FORMAT)
    throw damaged(`stored in format ${String(meta.format)}; this version reads format ${FORMAT}`);
  if (typeof checksum !== 'string' || checksum !== sha256(JSON.stringify(meta)))
    throw damaged('its content does not match its checksum (edited or damaged)');
  if (meta.version !== version) throw damaged(`names version '${String(meta.version)}', not its folder's`);
  return meta;
}

/** The edition.json of `version`, or null when it is missing or fails its checks. */
export function readEditionMetaOrNull(stateDir: string, version: string): EditionMeta | null {
  try {
    return readEditionMeta(stateDir, version);
  } catch (error) {
    if (error instanceof DamagedFile) return null;
    throw error;
  }
}

/**
 * The pointer to the edition to serve; null when there is none (no file, or `null` in it: the
 * newest stored edition is served then). A pointer that cannot be read, is not of its shape, or
 * names anything but a plain folder name throws StateFolderError naming the file: the folder
 * holds something this program did not write, which an operator must look at.
 */
export function readPointer(stateDir: string): CurrentPointer | null {
  const path = currentPointer(stateDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new StateFolderError(`${path}: cannot be read (${code ?? String(error)})`);
  }
  const wrong = (what: string): StateFolderError =>
    new StateFolderError(`${path}: ${what}; remove the file to serve the newest stored edition`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw wrong(`not JSON (${(error as Error).message})`);
  }
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw wrong('not a JSON object');
  const p = value as Partial<Record<keyof CurrentPointer, unknown>>;
  for (const key of ['version', 'source', 'fingerprint'] as const)
    if (typeof p[key] !== 'string') throw wrong(`'${key}' must be a string`);
  if (!isVersionName(p.version as string))
    throw wrong(`'version' must name an edition folder under snapshots/, got ${JSON.stringify(p.version)}`);
  return p as CurrentPointer;
}
