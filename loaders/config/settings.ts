// Every setting of the server and the CLIs, declared once: flag, variable, kind, default, doc.

import { availableParallelism } from 'node:os';
import { BUILT_IN_PLAN_NAMES } from '../../engine/plans.js';
import * as kind from './kinds.js';
import type { Kind } from './kinds.js';
import { plansFile } from './plans-file.js';

/** One setting. `T` is its checked value (with `null` when it has no default). */
export interface Setting<T> {
  /** The command-line flag without its dashes (`port` for `--port`), or null (environment only). */
  readonly flag: string | null;
  /** The environment variable, or null (a command's own flag). */
  readonly env: string | null;
  readonly kind: Kind<NonNullable<T>>;
  /**
   * The default as an operator would write it (checked like one), a function for one that
   * depends on the machine (read at start, never at import), or null: unset.
   */
  readonly default: string | (() => string) | null;
  /** How `--help` and docs/operators.md show a computed default (`cores − 1`). */
  readonly shownDefault?: string;
  /** One or two sentences: what it does, and what its values mean. */
  readonly doc: string;
  /** Never echoed in messages (it may hold a password). */
  readonly secret?: boolean;
}

type Spec<T> = Omit<Setting<T>, 'default' | 'kind'> & { kind: Kind<T> };

/** A setting with a default. */
function setting<T>(spec: Spec<T> & { default: string | (() => string) }): Setting<T> {
  return spec as Setting<T>;
}

/** A setting that may be unset (its value is then null). */
function optional<T>(spec: Spec<T>): Setting<T | null> {
  return { ...spec, default: null } as Setting<T | null>;
}

// ---- The server (`npm start`); the state folder is shared with the CLIs. ----

export const STATE_DIR = setting({
  flag: 'state',
  env: 'STATE_DIR',
  kind: kind.folder,
  default: './var',
  doc: 'Folder of the stored snapshots, keys, usage and the operator password.',
});

export const PLANS_FILE = optional({
  flag: 'plans-file',
  env: 'PLANS_FILE',
  kind: plansFile,
  doc: "Plans in force: a JSON file that changes the built-in plans' figures and adds plans (format under Operators), read once at start. Unset: free, pro and enterprise with the spec's figures, and internal. A stored key whose plan it lacks stops the start (exit 2). Give every instance and npm run keys the same file.",
});

/** Stored editions kept on disk: the server's and `npm run load`'s. */
const KEEP_EDITIONS = setting({
  flag: 'keep-editions',
  env: 'KEEP_EDITIONS',
  kind: kind.integer(1, 100),
  default: '2',
  doc: 'Stored editions (snapshot versions) kept on disk: the newest, and any still served; an edition being stored counts (older ones go before its parts are written). Older ones are deleted once no thread reads them, and with them every market part no kept edition names (markets unchanged between editions are stored once), whatever the reload rate.',
});

export const SERVER_SETTINGS = {
  port: setting({
    flag: 'port',
    env: 'PORT',
    kind: kind.integer(0, 65535),
    default: '8080',
    doc: 'TCP port to listen on; 0 picks a free one. A port already in use is refused (exit 2).',
  }),
  host: setting({
    flag: 'host',
    env: 'HOST',
    kind: kind.host,
    default: '127.0.0.1',
    doc: 'Address to listen on (0.0.0.0 or :: for every interface).',
  }),
  snapshot: optional({
    flag: 'snapshot',
    env: 'SNAPSHOT_DIR',
    kind: kind.existingFolder,
    doc: 'Snapshot folder to load at start and on reload (SIGHUP). Unset: the stored snapshot (the one snapshots/current.json names, else the newest), or the built-in demo when nothing is stored.',
  }),
  state: STATE_DIR,
  keepEditions: KEEP_EDITIONS,
  quotaTz: setting({
    flag: 'quota-tz',
    env: 'QUOTA_TZ',
    kind: kind.timeZone,
    default: 'UTC',
    doc: 'Time zone of the daily quota reset (local midnight).',
  }),
  plansFile: PLANS_FILE,
  threads: setting({
    flag: 'threads',
    env: 'THREADS',
    kind: kind.integer(1, 256),
    default: () => String(availableParallelism()),
    shownDefault: 'cores',
    doc: 'Serving threads on the port, sharing one copy of the data and exact limits. With 2 or more, the main thread also answers the dashboard and /metrics for the others, and screens and as_of tables on the others run inline.',
  }),
  poolThreads: setting({
    flag: 'pool-threads',
    env: 'POOL_THREADS',
    kind: kind.integer(1, 256),
    default: () => String(Math.max(1, availableParallelism() - 1)),
    shownDefault: 'cores − 1',
    doc: 'Screen worker threads.',
  }),
  screenPoolMinRows: setting({
    flag: 'screen-pool-min-rows',
    env: 'SCREEN_POOL_MIN_ROWS',
    kind: kind.integer(0, 100_000_000),
    default: '20000',
    doc: 'Markets with at least this many symbols screen on the pool. Measured: one screen is faster inline; above ~20,000 rows a pooled one costs the serving thread less. The default is above every market.',
  }),
  klineTextCacheMb: setting({
    flag: 'kline-text-cache-mb',
    env: 'KLINE_TEXT_CACHE_MB',
    kind: kind.integer(0, 65536),
    default: '256',
    doc: 'MB of rendered rows kept per data version, in each serving thread: K-line rows (three quarters) and the snapshot rows of detail and screens (a quarter).',
  }),
  asOfCacheMb: setting({
    flag: 'as-of-cache-mb',
    env: 'AS_OF_CACHE_MB',
    kind: kind.integer(0, 65536),
    default: '256',
    doc: 'MB of snapshot tables as of past days (as_of) kept in each serving thread, least recently used out first; one ashare-sized table counts ~3 MB.',
  }),
  responseCacheMb: setting({
    flag: 'response-cache-mb',
    env: 'RESPONSE_CACHE_MB',
    kind: kind.integer(0, 65536),
    default: '64',
    doc: 'MB of whole answers kept per data version, in each serving thread; 0 turns the cache off.',
  }),
  busyPollMs: setting({
    flag: 'busy-poll-ms',
    env: 'BUSY_POLL_MS',
    kind: kind.integer(0, 1000),
    default: '0',
    doc: "After a request the event loop polls without sleeping this long: skips an idle core's wake-up at the price of a busy core while requests flow; 0 is off.",
  }),
  exportStallS: setting({
    flag: 'export-stall-s',
    env: 'EXPORT_STALL_S',
    kind: kind.integer(5, 14400),
    default: '600',
    doc: "An export whose reader does not take the chunk under way (64 KiB to a few hundred KiB) within this many seconds is closed, and the rows not sent are given back to its key's export allowance: a reader may pause this long, and must average at least a chunk in this time.",
  }),
  exportsPerKey: setting({
    flag: 'exports-per-key',
    env: 'EXPORTS_PER_KEY',
    kind: kind.integer(1, 1000),
    default: '4',
    doc: 'Exports one key may have under way at once, over every serving thread (another is a 429 too_many_exports); internal keys are not limited.',
  }),
  drainGraceMs: setting({
    flag: 'drain-grace-ms',
    env: 'DRAIN_GRACE_MS',
    kind: kind.integer(0, 8000),
    default: '500',
    doc: 'On SIGTERM/SIGINT, how long open connections keep getting 503 shutting_down before the process waits for requests in flight and exits.',
  }),
  streamIdleSeconds: setting({
    flag: 'stream-idle-seconds',
    env: 'STREAM_IDLE_SECONDS',
    kind: kind.integer(8, 3600),
    default: '60',
    doc: "A WebSocket of /api/v1/stream silent this long is closed as dead; the server pings an idle live one well before (its pong keeps it open). Keep a proxy's read timeout above it.",
  }),
  corsOrigins: setting({
    flag: 'cors-origins',
    env: 'CORS_ORIGINS',
    kind: kind.origins,
    default: '*',
    doc: 'Origins whose pages may call the API: * (the API authenticates by header, never by cookie) or a comma list. The dashboard never answers CORS.',
  }),
  adminOrigin: optional({
    flag: 'admin-origin',
    env: 'ADMIN_ORIGIN',
    kind: kind.origin,
    doc: "The dashboard's public origin (set it to reach the dashboard by name, e.g. behind a proxy): only requests whose Host is its host[:port] are answered, and writes must come from it. Unset: only an IP address or localhost Host is answered (a guard against DNS rebinding), writes from http:// + that Host.",
  }),
  smtpUrl: optional({
    flag: null,
    env: 'SMTP_URL',
    kind: kind.smtpUrl,
    secret: true,
    doc: 'Mail server for the dashboard\'s "mail key details" (the secret is never mailed). Environment only: it may hold a password. Unset: no mail.',
  }),
  redisUrl: optional({
    flag: null,
    env: 'REDIS_URL',
    kind: kind.redisUrl,
    secret: true,
    doc: "Redis shared by every instance: rate buckets, daily usage and the key table, so limits hold across instances and a key changed on one reaches the others within a second. Unreachable at start: exit 2; lost while serving: limited keys get 503 limits_unavailable until it is back. Unset: limits are this instance's own. Environment only: it may hold a password.",
  }),
  mailFrom: setting({
    flag: 'mail-from',
    env: 'MAIL_FROM',
    kind: kind.mailAddress,
    default: 'market-data-service@localhost',
    doc: 'Sender of those mails.',
  }),
  accessLog: setting({
    flag: 'access-log',
    env: 'ACCESS_LOG',
    kind: kind.boolean,
    default: 'off',
    doc: 'One log line per request (route, status, plan, key id, rows, bytes, µs).',
  }),
  metrics: setting({
    flag: 'metrics',
    env: 'METRICS',
    kind: kind.boolean,
    default: 'on',
    doc: 'Serve GET /metrics (Prometheus text format, no key).',
  }),
  logLevel: setting({
    flag: 'log-level',
    env: 'LOG_LEVEL',
    kind: kind.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    default: 'info',
    doc: 'Least severe log level written.',
  }),
};

// ---- The CLIs' own flags (no environment variable). ----

export const KEYS_SETTINGS = {
  plan: optional({
    flag: 'plan',
    env: null,
    kind: kind.planName,
    doc: `Plan of the key to create: ${BUILT_IN_PLAN_NAMES.join(', ')} or one of PLANS_FILE.`,
  }),
  org: optional({
    flag: 'org',
    env: null,
    kind: kind.text(200),
    doc: 'Organisation the key is for (create); no tabs or line breaks, so that list prints one line per key.',
  }),
  state: STATE_DIR,
  plansFile: PLANS_FILE,
};

export const GEN_DEMO_SETTINGS = {
  out: setting({
    flag: 'out',
    env: null,
    kind: kind.outputPath,
    default: 'snapshots/demo',
    doc: 'Folder to write (replaced whole; built beside it and renamed into place).',
  }),
  seed: setting({
    flag: 'seed',
    env: null,
    kind: kind.integer(-2147483648, 2147483647),
    default: '20261030',
    doc: 'Seed: the same seed, scale and years give byte-identical files.',
  }),
  scale: setting({
    flag: 'scale',
    env: null,
    kind: kind.decimal(0, 1),
    default: '1',
    doc: "Share of each market's symbols to keep (at least one each).",
  }),
  years: setting({
    flag: 'years',
    env: null,
    kind: kind.decimal(0, 16),
    default: '10',
    doc: 'Years of history ending 2026-10-30.',
  }),
};

// ---- Which program reads which settings (their --help lists exactly these). ----

/** A command: its name in error lines, its usage line and what it does, its settings and arguments. */
export interface Program<S extends Settings = Settings> {
  /** Prefix of its one-line errors (`mdq: …`, `keys: …`). */
  readonly name: string;
  /** `npm start -- [flags]`. */
  readonly usage: string;
  /** What it does (and its commands), printed by --help above the settings. */
  readonly about: string;
  readonly settings: S;
  /** How many arguments it takes besides flags, and what each must be (checked like a setting). */
  readonly positionals: {
    readonly min: number;
    readonly max: number;
    readonly name?: string;
    readonly kind?: Kind<string>;
  };
}

/** Settings by the property name their value is read under. */
export type Settings = Readonly<Record<string, Setting<unknown>>>;

export const SERVER: Program<typeof SERVER_SETTINGS> = {
  name: 'mdq',
  usage: 'npm start -- [flags]   (or node dist/main.js [flags])',
  about:
    'Serves the API at http://HOST:PORT/api/v1 over the stored snapshot (the demo on a first start). A flag wins over its variable; an empty variable is unset.',
  settings: SERVER_SETTINGS,
  positionals: { min: 0, max: 0 },
};

export const LOAD: Program<{ state: typeof STATE_DIR; keepEditions: typeof KEEP_EDITIONS }> = {
  name: 'load',
  usage: 'npm run load -- <snapshot folder> [--state DIR]',
  about:
    'Validates a snapshot folder and stores it (markets whose files are stored already are not parsed again); the next start (or a reload) serves it. Exit 1 with file:line: reason when rejected; the stored snapshot stays.',
  settings: { state: STATE_DIR, keepEditions: KEEP_EDITIONS },
  positionals: { min: 1, max: 1, name: '<snapshot folder>', kind: kind.existingFolder },
};

export const KEYS: Program<typeof KEYS_SETTINGS> = {
  name: 'keys',
  usage: 'npm run keys -- <command> [flags]',
  about: [
    'Manages API keys in the state folder. Commands:',
    '  create --plan <plan> [--org NAME]                       prints the new key on the last line',
    '  list                                                    id, plan, enabled|disabled, org, created',
    '  disable <id> | enable <id>',
    '  rotate <id>                                             prints the new key; the old one stops working',
    "  set-plan <id> <plan>                                    today's usage is kept; a running server applies it within a second",
    `Plans: ${BUILT_IN_PLAN_NAMES.join(', ')}, and those PLANS_FILE adds (give it the server's file).`,
  ].join('\n'),
  settings: KEYS_SETTINGS,
  positionals: { min: 0, max: 3 },
};

export const ADMIN: Program<{ state: typeof STATE_DIR }> = {
  name: 'admin',
  usage: 'npm run admin -- set-password [--state DIR]',
  about:
    'Stores the dashboard operator password (a salted scrypt hash), read from the first line of standard input or prompted twice on a terminal. Open dashboard sessions end.',
  settings: { state: STATE_DIR },
  positionals: { min: 1, max: 1 },
};

export const GEN_DEMO: Program<typeof GEN_DEMO_SETTINGS> = {
  name: 'gen-demo',
  usage: 'npm run gen-demo -- [flags]',
  about:
    'Writes the built-in demo snapshot: synthetic symbols, prices, fundamentals and macro series from a seeded generator.',
  settings: GEN_DEMO_SETTINGS,
  positionals: { min: 0, max: 0 },
};

/** Every program, for --help tests. */
export const PROGRAMS: readonly Program[] = [SERVER, LOAD, KEYS, ADMIN, GEN_DEMO];

/** Every declared setting once (docs/operators.md's table lists those with a variable). */
export const ALL_SETTINGS: readonly Setting<unknown>[] = [
  ...new Set<Setting<unknown>>([
    ...Object.values(SERVER_SETTINGS),
    ...Object.values(KEYS_SETTINGS),
    ...Object.values(GEN_DEMO_SETTINGS),
  ]),
];
