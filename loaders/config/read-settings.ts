// Reads a program's settings from its flags and the environment, checks every one, and writes its --help.

import { type Kind, KindError, KindFileError } from './kinds.js';
import type { Program, Setting, Settings } from './settings.js';

/** An operator's mistake in a flag, a variable or an argument: one line, exit code 2, no stack. */
export class SettingError extends Error {}

/** The checked values of settings `S`, by property name. */
export type Values<S extends Settings> = { -readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** What the command line asked for: the values and arguments, or the help. */
export type Reading<S extends Settings> = { help: true } | { help: false; values: Values<S>; positionals: string[] };

/** `text` with control characters escaped, so a message stays one line. */
function escaped(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `text` with control characters escaped and long text cut, so a message stays one line. */
function printable(text: string): string {
  return escaped(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

const quote = (text: string): string => `'${printable(text)}'`;

/** Edit distance of two short strings (for "did you mean"). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** `unknown flag --prot (did you mean --port?)`. */
function unknownFlag(program: Program, name: string): SettingError {
  const flags = Object.values(program.settings).flatMap((s) => (s.flag === null ? [] : [s.flag]));
  const close = flags.map((f) => ({ f, d: distance(name.toLowerCase(), f) })).sort((a, b) => a.d - b.d)[0];
  const hint = close !== undefined && close.d <= 2 ? ` (did you mean --${close.f}?)` : '';
  return new SettingError(`unknown flag --${printable(name)}${hint}; --help lists the flags`);
}

/**
 * Reads `argv` (flags and arguments; `--` ends the flags) and `env` against `program`'s
 * declarations: a flag wins over its variable, an empty variable is unset, a default is
 * checked like a given value. Throws {@link SettingError} on the first problem. Stats a
 * folder setting's path; reads nothing else.
 */
export function readSettings<S extends Settings>(
  program: Program<S>,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Reading<S> {
  const byFlag = new Map<string, string>();
  for (const [key, s] of Object.entries(program.settings)) if (s.flag !== null) byFlag.set(s.flag, key);
  const given = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--help' || arg === '-h') return { help: true };
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) throw new SettingError(`unknown flag ${quote(arg)}; --help lists the flags`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const key = byFlag.get(name);
    if (key === undefined) throw unknownFlag(program, name);
    if (given.has(key)) throw new SettingError(`--${name} is given twice`);
    const setting = program.settings[key];
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (!setting.kind.takesValue) value = 'on';
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    else throw new SettingError(`--${name} needs a value (${setting.kind.accepts})`);
    given.set(key, value);
  }
  const { min, max } = program.positionals;
  if (positionals.length > max)
    throw new SettingError(`unexpected argument ${quote(positionals[max])}; usage: ${program.usage}`);
  if (positionals.length < min) throw new SettingError(`missing argument; usage: ${program.usage}`);
  const { kind, name = 'the argument' } = program.positionals;
  if (kind !== undefined) for (const p of positionals) checkText(kind, p, name, false);

  const values: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(program.settings)) {
    const flagged = given.get(key);
    const fromEnv = s.env === null ? undefined : env[s.env];
    const [raw, source] =
      flagged !== undefined
        ? [flagged, `--${s.flag}`]
        : fromEnv !== undefined && fromEnv !== ''
          ? [fromEnv, s.env!]
          : [typeof s.default === 'function' ? s.default() : s.default, `the default of ${s.env ?? `--${s.flag}`}`];
    values[key] = raw === null ? null : checkText(s.kind, raw, source, s.secret === true);
  }
  return { help: false, values: values as Values<S>, positionals };
}

/**
 * `kind`'s value of `raw`, or a SettingError naming `source` (with the text unless it is
 * secret); for a settings file that reads but is wrong, `<source> <file>:<line>: <reason>`.
 */
function checkText<T>(kind: Kind<T>, raw: string, source: string, secret: boolean): T {
  try {
    return kind.parse(raw);
  } catch (error) {
    if (!(error instanceof KindError)) throw error;
    if (error instanceof KindFileError)
      throw new SettingError(`${source} ${escaped(error.file)}:${error.line}: ${escaped(error.message)}`);
    throw new SettingError(`${source} must ${error.message}${secret ? '' : `, got ${quote(raw)}`}`);
  }
}

/** The default as `--help` and the README show it. */
export function shownDefault(s: Setting<unknown>): string {
  return (
    s.shownDefault ??
    (s.default === null ? 'unset' : typeof s.default === 'function' ? s.default() : s.default === '' ? "''" : s.default)
  );
}

/** How the flag is written: `--port N`, `--access-log[=off]`, or `(environment only)`. */
export function flagForm(s: Setting<unknown>): string {
  if (s.flag === null) return '';
  return s.kind.takesValue ? `--${s.flag} <${s.kind.accepts}>` : `--${s.flag}[=on|off]`;
}

/** `--help`: usage, what the program does, then every setting it reads (from the declarations). */
export function helpText(program: Program): string {
  const lines = [`usage: ${program.usage}`, '', program.about, '', 'Settings (flag, environment variable, default):'];
  for (const s of Object.values(program.settings)) {
    const names = [flagForm(s), s.env ?? ''].filter((x) => x !== '').join(', ');
    lines.push(`  ${names}${s.flag === null ? ' (environment only)' : ''}; default ${shownDefault(s)}`);
    lines.push(`      ${s.doc}`);
  }
  lines.push('  -h, --help', '      Prints this and exits.');
  return lines.join('\n');
}
