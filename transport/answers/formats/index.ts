// Every response format, in the server's order of preference: a new format is its file and one line here.

import { arrow } from './arrow.js';
import { csv } from './csv.js';
import { flatbuffers } from './flatbuffers.js';
import type { ResponseFormat } from './format.js';
import { json } from './json.js';
import { msgpack } from './msgpack.js';

/** The formats every data route may answer in negotiation order: Accept's ties go to the earlier, the first is the default. */
export const FORMATS = [json, msgpack, flatbuffers, csv, arrow] as const;

/** A format's `format=` name. */
export type Format = (typeof FORMATS)[number]['name'];

/** The `format=` names, in registry order. */
export const FORMAT_NAMES: readonly Format[] = FORMATS.map((f) => f.name);

/** Each format by its `format=` name (one lookup per answer on the hot path). */
export const FORMAT_OF = Object.fromEntries(FORMATS.map((f) => [f.name, f])) as unknown as Readonly<
  Record<Format, ResponseFormat<Format>>
>;
