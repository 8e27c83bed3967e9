// Opens a stored part's LMDB environment to read, with a map size under which lmdb-js's in-place
// reads stay right when a part is mapped where a closed one was.

import { statSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';

/**
 * lmdb-js (3.5.6, env.cpp `toSharedBuffer`) hands out a value read in place as a view of one
 * ArrayBuffer per window of the map (windows start 0xf0000000 bytes apart and are 4 GiB long, cut
 * at the map's end), and keeps that buffer by the window's start address, in the whole process,
 * with the end it had when first made. mmap reuses the address of a closed map: a larger part
 * mapped there was read through the closed one's shorter buffer ("Invalid typed array length", the
 * part taken for damaged; every second daily append of the full demo did it). A map that reaches
 * past its last window's 4 GiB gives every window the same end whatever the file's size, so a
 * buffer kept from a closed part is as long as the one it stands for. Only address space: the
 * file's pages are all that is ever read.
 */
const WINDOW_STEP = 0xf0000000;
const WINDOW = 2 ** 32;

/** The map size for a part file of `bytes`: its last window whole. */
export const readMapSize = (bytes: number): number => Math.floor(bytes / WINDOW_STEP) * WINDOW_STEP + WINDOW;

/** The part's environment at `file` (its data.mdb) opened read-only; close it once nothing reads its values. */
export function openPartEnv(file: string): RootDatabase {
  return open({ path: file, encoding: 'msgpack', readOnly: true, mapSize: readMapSize(statSync(file).size) });
}
