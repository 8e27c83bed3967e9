// Kinds of setting values: how a flag's or variable's text becomes a checked value.

import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { wellFormedPlanName } from '../../engine/plans.js';

/** What a setting's text must look like, and how it becomes a value. */
export interface Kind<T> {
  /** The values it accepts, for `--help` and the README: `0–65535`, `on or off`. */
  readonly accepts: string;
  /** False for a switch: `--access-log` alone means on (`--access-log=off` still works). */
  readonly takesValue: boolean;
  /**
   * The value of `text`, or throws {@link KindError} saying what was expected. Reads the
   * disk only to check a folder (a stat), or to read a settings file whole (PLANS_FILE).
   */
  parse(text: string): T;
}

/** A value that does not fit its kind: the message completes "<NAME> must …". */
export class KindError extends Error {}

/** A settings file that reads but is wrong: the message is the reason, shown after `file:line:`. */
export class KindFileError extends KindError {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** A plan's name (`[a-z][a-z0-9_-]{0,31}`); whether it is in force is checked against the plans where it is used. */
export const planName: Kind<string> = {
  accepts: 'plan name',
  takesValue: true,
  parse(text) {
    if (!wellFormedPlanName(text))
      throw new KindError('be a plan name: a lower-case letter then up to 31 of a-z, 0-9, _ and -');
    return text;
  },
};

/** A whole number from `min` to `max` (decimal digits, an optional minus; no `1e3`, no `0x10`). */
export function integer(min: number, max: number): Kind<number> {
  const accepts = `whole number ${min}–${max}`;
  return {
    accepts,
    takesValue: true,
    parse(text) {
      const n = /^-?\d{1,16}$/.test(text) ? Number(text) : NaN;
      if (!(n >= min && n <= max)) throw new KindError(`be a whole number from ${min} to ${max}`);
      return n;
    },
  };
}

/** A decimal number in (`above`, `max`]: the lower bound excluded. */
export function decimal(above: number, max: number): Kind<number> {
  return {
    accepts: `number > ${above} and ≤ ${max}`,
    takesValue: true,
    parse(text) {
      const n = /^-?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
      if (!(n > above && n <= max)) throw new KindError(`be a number above ${above} and at most ${max}`);
      return n;
    },
  };
}

const ON = new Set(['1', 'true', 'on', 'yes']);
const OFF = new Set(['0', 'false', 'off', 'no']);

/** on/off (also 1/0, true/false, yes/no; any case). */
export const boolean: Kind<boolean> = {
  accepts: 'on or off (1/0, true/false)',
  takesValue: false,
  parse(text) {
    const t = text.toLowerCase();
    if (ON.has(t)) return true;
    if (OFF.has(t)) return false;
    throw new KindError('be on or off (1/0, true/false, yes/no)');
  },
};

/** One of `values`, exactly. */
export function oneOf<const V extends string>(values: readonly V[]): Kind<V> {
  return {
    accepts: values.join(' | '),
    takesValue: true,
    parse(text) {
      if (!(values as readonly string[]).includes(text)) throw new KindError(`be one of ${values.join(', ')}`);
      return text as V;
    },
  };
}

/** Text of 1–`max` characters without control characters (tabs and line breaks included). */
export function text(max: number): Kind<string> {
  return {
    accepts: `text, at most ${max} characters`,
    takesValue: true,
    parse(value) {
      if (value.length > max || /[\x00-\x1f\x7f]/.test(value))
        throw new KindError(`be at most ${max} characters without tabs, line breaks or control characters`);
      return value;
    },
  };
}

/** An IANA time zone the runtime knows (`UTC`, `Asia/Shanghai`). */
export const timeZone: Kind<string> = {
  accepts: 'IANA time zone',
  takesValue: true,
  parse(value) {
    if (value === 'UTC') return value; // the default: known without Intl's zone data (~20 ms of a start to load)
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
    } catch {
      throw new KindError('be an IANA time zone such as UTC, Asia/Shanghai or America/New_York');
    }
    return value;
  },
};

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An IP address or a host name to listen on. */
export const host: Kind<string> = {
  accepts: 'IP address or host name',
  takesValue: true,
  parse(value) {
    if (isIP(value) === 0 && !HOST_NAME.test(value))
      throw new KindError('be an IP address (127.0.0.1, 0.0.0.0, ::) or a host name');
    return value;
  },
};

/** The reason a path cannot be stat-ed, in words (`no such file or directory`). */
function statProblem(path: string): { isDirectory: boolean } | string {
  try {
    return { isDirectory: statSync(path).isDirectory() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'no such folder'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'ENOTDIR'
          ? 'a parent is not a folder'
          : String(code);
  }
}

/** A folder that exists now (a snapshot folder). The value is the text as given. */
export const existingFolder: Kind<string> = {
  accepts: 'existing folder',
  takesValue: true,
  parse(value) {
    const s = statProblem(value);
    if (typeof s === 'string') throw new KindError(`be an existing folder (${s})`);
    if (!s.isDirectory) throw new KindError('be a folder, not a file');
    return value;
  },
};

/** A folder made when missing (the state folder): the absolute path; an existing file is refused. */
export const folder: Kind<string> = {
  accepts: 'folder, made if missing',
  takesValue: true,
  parse(value) {
    const path = resolve(value);
    const s = statProblem(path);
    if (typeof s !== 'string' && !s.isDirectory) throw new KindError('be a folder, not a file');
    if (s === 'a parent is not a folder') throw new KindError(`be a folder path (${s})`);
    return path;
  },
};

/** A path to write (a folder made or replaced): any non-empty text. */
export const outputPath: Kind<string> = {
  accepts: 'path',
  takesValue: true,
  parse(value) {
    if (value.trim() === '' || /[\x00-\x1f]/.test(value)) throw new KindError('be a path');
    return value;
  },
};

/** `scheme://host[:port]` exactly as a browser sends it in `Origin`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** One web origin (`https://ops.example`). */
export const origin: Kind<string> = {
  accepts: 'origin (https://host[:port])',
  takesValue: true,
  parse(value) {
    if (!isOrigin(value))
      throw new KindError('be an origin such as https://ops.example (scheme, host and port only, no trailing slash)');
    return value;
  },
};

/** `*` or a comma list of origins. */
export const origins: Kind<string> = {
  accepts: '* or comma list of origins',
  takesValue: true,
  parse(value) {
    const list = value.split(',').map((o) => o.trim());
    if (value.trim() !== '*' && !list.every(isOrigin))
      throw new KindError('be * or a comma list of origins such as https://a.example,https://b.example');
    return value;
  },
};

/**
 * A URL of one of `schemes` (`smtp`, …) with a host, whose path passes `path`; the message
 * completes "must be …" with `example`. It may hold a password: never echoed.
 */
function serviceUrl(schemes: readonly string[], example: string, path: RegExp = /.*/): Kind<string> {
  const names = schemes.map((s) => `${s}://`).join(' or ');
  return {
    accepts: `${names} URL`,
    takesValue: true,
    parse(value) {
      let ok = false;
      try {
        const url = new URL(value);
        ok = schemes.includes(url.protocol.slice(0, -1)) && url.hostname !== '' && path.test(url.pathname);
      } catch {
        ok = false;
      }
      if (!ok) throw new KindError(`be a URL of ${names} such as ${example}`);
      return value;
    },
  };
}

/** An `smtp://` or `smtps://` URL. */
export const smtpUrl = serviceUrl(['smtp', 'smtps'], 'smtp://user:password@mail.example:587');

/** A Redis URL: redis:// or rediss:// (TLS) with a host; a password and a database number may follow. */
export const redisUrl = serviceUrl(
  ['redis', 'rediss'],
  'redis://127.0.0.1:6379 (a database number may follow: redis://host:6379/2)',
  /^(\/\d*)?$/,
);

const ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+$/;

/** A mail sender: `ops@example.com` or `Market data <ops@example.com>`. */
export const mailAddress: Kind<string> = {
  accepts: 'mail address',
  takesValue: true,
  parse(value) {
    const named = /^[^<>\x00-\x1f]*<([^<>]+)>$/.exec(value);
    if (!ADDRESS.test(named === null ? value : named[1]))
      throw new KindError('be a mail address such as ops@example.com or "Market data <ops@example.com>"');
    return value;
  },
};
