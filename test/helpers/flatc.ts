// flatc's TypeScript readers of the published mdq.fbs, generated and loaded at test time, and a decoder built on them alone.

import { FLATBUFFER_TABLES } from '../../transport/answers/formats/flatbuffers.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ByteBuffer } from 'flatbuffers';
import ts from 'typescript';
import { KLINE_FIELDS } from '../../engine/columns.js';
import { FLATBUFFERS_SCHEMA_PATH, type FlatShapeName } from '../../transport/answers/formats/flatbuffers.js';

/** The flatc binary: FLATC when set, else the one on PATH. */
const FLATC = process.env.FLATC ?? 'flatc';

/**
 * Generated code goes under the project's test-artifacts/ (git-ignored): from there the
 * generated `import … from 'flatbuffers'` resolves to the project's node_modules.
 */
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

let missing: string | null | undefined;

/** Why flatc cannot run here, or null when it can (asked once per process). */
export function flatcMissing(): string | null {
  if (missing !== undefined) return missing;
  const run = spawnSync(FLATC, ['--version'], { encoding: 'utf8' });
  missing = run.error
    ? `flatc is not installed (${FLATC}: ${run.error.message}); install flatbuffers-compiler or set FLATC`
    : run.status !== 0
      ? `${FLATC} --version exited with ${run.status}: ${run.stderr.trim()}`
      : null;
  return missing;
}

/**
 * True when flatc is there. Otherwise skips the test saying why and returns false; under
 * CI (CI=true) fails it instead, so a runner without flatc cannot pass unchecked.
 */
export function needsFlatc(t: TestContext): boolean {
  const reason = flatcMissing();
  if (reason === null) return true;
  if (process.env.CI === 'true') assert.fail(`${reason}; CI must check the FlatBuffers format`);
  t.skip(reason);
  return false;
}

// The generated classes by table name, and their instances: typed loosely, they exist only at run time.
type Generated = Record<string, any>;
type Table = any;

let generated: Promise<Generated> | undefined;

/** The generated reader classes of mdq.fbs (generated once per process). */
export function generatedReaders(): Promise<Generated> {
  return (generated ??= generate());
}

/** Relative specifiers get `.js`: Node's ESM loader needs the extension flatc (2.0.8) leaves out. */
const withJs = (code: string): string => code.replace(/(from\s+['"])(\.{1,2}\/[^'"]+?)(?<!\.js)(['"])/g, '$1$2.js$3');

/** `flatc --ts` into a fresh folder, each .ts transpiled to an ESM .js beside it, all imported, the folder removed. */
async function generate(): Promise<Generated> {
  await mkdir(ARTIFACTS, { recursive: true });
  const dir = await mkdtemp(join(ARTIFACTS, 'flatc-'));
  try {
    const run = spawnSync(FLATC, ['--ts', '-o', dir, FLATBUFFERS_SCHEMA_PATH], { encoding: 'utf8' });
    if (run.error || run.status !== 0) throw new Error(`flatc --ts failed: ${run.error?.message ?? run.stderr}`);
    const sources = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
    for (const file of sources) {
      const { outputText } = ts.transpileModule(await readFile(join(dir, file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
        fileName: file,
      });
      await writeFile(join(dir, file.replace(/\.ts$/, '.js')), withJs(outputText));
    }
    const classes: Generated = {};
    // Every file, not only flatc's index: 2.0.8's mdq_generated.ts leaves the root tables out.
    for (const file of sources)
      Object.assign(classes, await import(pathToFileURL(join(dir, file.replace(/\.ts$/, '.js'))).href));
    return classes;
  } finally {
    await rm(dir, { recursive: true, force: true }); // imported modules stay loaded
  }
}

/** The root table of a buffer of `shape`, as flatc's generated class reads it. */
export async function flatbuffersRoot(shape: FlatShapeName, bytes: Uint8Array): Promise<Table> {
  const table = FLATBUFFER_TABLES[shape];
  const reader = (await generatedReaders())[table];
  assert.ok(reader, `flatc generated a ${table} class`);
  return reader[`getRootAs${table}`](new ByteBuffer(bytes));
}

/**
 * The JSON value a buffer of `shape` stands for, read only through the generated
 * accessors: NaN → null, YYYYMMDD → 'YYYY-MM-DD', uint64 bigint → number, snapshot rows
 * with their `fields` only, `missing` when present. The TypeScript accessors cannot tell
 * an absent vector of strings from an empty one, so an empty `missing` reads as absent.
 */
export async function decodeFlatbuffers(shape: FlatShapeName, bytes: Uint8Array): Promise<unknown> {
  return DECODERS[shape](await flatbuffersRoot(shape, bytes));
}

// ---- reading helpers -------------------------------------------------------------------

/** flatc's accessor name of a schema field: snake_case → lowerCamelCase (high_52week → high52week). */
export const accessor = (field: string): string => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const list = <T>(length: number, at: (i: number) => T): T[] => Array.from({ length }, (_, i) => at(i));
const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);
const optionalNumber = (x: bigint | null): number | null => (x === null ? null : Number(x));
/** A [string] field by name. */
const strings = (t: Table, field: string): string[] =>
  list(t[`${accessor(field)}Length`](), (i) => t[accessor(field)](i));
/** A vector of tables by name, each read by `read`. */
const tables = <T>(t: Table, field: string, read: (row: Table) => T): T[] =>
  list(t[`${accessor(field)}Length`](), (i) => read(t[accessor(field)](i)));
const withMissing = <T extends object>(t: Table, value: T): T =>
  t.missingLength() > 0 ? { ...value, missing: strings(t, 'missing') } : value;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
/** 20250314 → '2025-03-14'. */
const dateText = (d: number): string =>
  `${pad(Math.floor(d / 10000), 4)}-${pad(Math.floor(d / 100) % 100, 2)}-${pad(d % 100, 2)}`;

/** K-line columns back to rows: symbol, date, the fields that have a vector, adj_factor. */
function klineRows(columns: Table, symbol: string): Record<string, unknown>[] {
  const dates: Int32Array = columns.dateArray();
  const present = KLINE_FIELDS.map((f) => [f, columns[`${accessor(f)}Array`]() as Float64Array | null] as const).filter(
    ([, v]) => v !== null,
  );
  const adjFactor: Float64Array = columns.adjFactorArray();
  return list(dates.length, (i) => ({
    symbol,
    date: dateText(dates[i]),
    ...Object.fromEntries(present.map(([f, v]) => [f, orNull(v![i])])),
    adj_factor: orNull(adjFactor[i]),
  }));
}

/** A snapshot with exactly the listed columns. */
const snapshotRow = (s: Table, fields: string[]): Record<string, unknown> =>
  Object.fromEntries(fields.map((f) => [f, s[accessor(f)]()]));

// ---- one decoder per root table --------------------------------------------------------

const DECODERS: Record<FlatShapeName, (t: Table) => unknown> = {
  markets: (t) => ({
    count: t.count(),
    data: tables(t, 'data', (m) => ({
      market: m.market(),
      symbols: m.symbols(),
      rows: Number(m.rows()),
      start_date: m.startDate(),
      end_date: m.endDate(),
    })),
  }),
  symbols: (t) => ({
    market: t.market(),
    total: t.total(),
    count: t.count(),
    limit: t.limit(),
    offset: Number(t.offset()),
    data: tables(t, 'data', (s) => ({ symbol: s.symbol(), name: s.name() })),
  }),
  calendar: (t) => ({
    market: t.market(),
    total: t.total(),
    count: t.count(),
    limit: t.limit(),
    offset: Number(t.offset()),
    data: strings(t, 'dates').map((date) => ({ date })),
  }),
  actions: (t) => ({
    market: t.market(),
    symbol: t.symbol(),
    count: t.count(),
    data: tables(t, 'data', (a) => ({
      date: a.date(),
      adj_factor: a.adjFactor(),
      prev_adj_factor: a.prevAdjFactor(),
      ratio: a.ratio(),
    })),
  }),
  klines: (t) => ({
    market: t.market(),
    symbol: t.symbol(),
    count: t.count(),
    total: t.total(),
    offset: Number(t.offset()),
    limit: t.limit(),
    fields: strings(t, 'fields'),
    data: klineRows(t.columns(), t.symbol()),
  }),
  klinesBatch: (t) =>
    withMissing(t, {
      market: t.market(),
      count: t.count(),
      limit: t.limit(),
      offset: Number(t.offset()),
      fields: strings(t, 'fields'),
      data: Object.fromEntries(tables(t, 'data', (e) => [e.symbol(), klineRows(e.columns(), e.symbol())])),
    }),
  crossSection: (t) => {
    const symbols = strings(t, 'symbols');
    return {
      market: t.market(),
      date: t.date(),
      total: t.total(),
      count: t.count(),
      limit: t.limit(),
      offset: Number(t.offset()),
      fields: strings(t, 'fields'),
      data: klineRows(t.columns(), '').map((row, i) => ({ ...row, symbol: symbols[i] })),
    };
  },
  detail: (t) => ({
    market: t.market(),
    symbol: t.symbol(),
    count: t.count(),
    data: snapshotRow(t.data(), strings(t, 'fields')),
  }),
  detailBatch: (t) => {
    const fields = strings(t, 'fields');
    return withMissing(t, {
      market: t.market(),
      count: t.count(),
      data: Object.fromEntries(tables(t, 'data', (s) => [s.symbol(), snapshotRow(s, fields)])),
    });
  },
  screen: (t) => {
    const fields = strings(t, 'fields');
    return {
      market: t.market(),
      total: t.total(),
      count: t.count(),
      limit: t.limit(),
      offset: Number(t.offset()),
      sort: t.sort(),
      order: t.order(),
      data: tables(t, 'data', (s) => snapshotRow(s, fields)),
    };
  },
  macro: (t) => ({
    count: t.count(),
    total: t.total(),
    limit: t.limit(),
    offset: Number(t.offset()),
    data: tables(t, 'data', (r) => {
      const values: Float64Array = r.valuesArray();
      return {
        indicator: r.indicator(),
        date: r.date(),
        data: Object.fromEntries(strings(r, 'keys').map((k, i) => [k, orNull(values[i])])),
      };
    }),
  }),
  macroIndicators: (t) => ({
    count: t.count(),
    data: tables(t, 'data', (d) => ({
      indicator: d.indicator(),
      frequency: d.frequency(),
      start: d.start(),
      end: d.end(),
      keys: tables(d, 'keys', (k) => ({ key: k.key(), unit: k.unit() })),
    })),
  }),
  quota: (t) => ({
    plan: t.plan(),
    org_name: t.orgName(),
    daily_quota: optionalNumber(t.dailyQuota()),
    used: Number(t.used()),
    remaining: optionalNumber(t.remaining()),
    requests_today: Number(t.requestsToday()),
    reset_at: t.resetAt(),
    export_quota: optionalNumber(t.exportQuota()),
    export_used: Number(t.exportUsed()),
    export_remaining: optionalNumber(t.exportRemaining()),
  }),
};
