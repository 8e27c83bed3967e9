// PLANS_FILE: the operator's plans, a JSON file read and checked whole at start, with the
// settings; a mistake is reported as file:line. Format (docs/operators.md, "Operators"):
//
//   { "free": {"rpm": 60, "daily_quota": 5000, "batch": 5, "rows_per_call": 100},
//     "gold": {"rpm": 300, "daily_quota": 1000000, "batch": 20, "rows_per_call": 1000,
//              "export_rows": 50000000, "connections": 10, "subscriptions": 100} }
//
// `export_rows`, `connections` and `subscriptions` may be left out: a built-in plan keeps its
// own, an added plan gets 0 export rows (no exports), and the free plan's stream limits.

import { readFileSync, statSync } from 'node:fs';
import {
  BUILT_IN_PLAN_NAMES,
  BUILT_IN_PLANS,
  isBuiltInPlan,
  PLAN_NAME,
  type PlanFigures,
  Plans,
  type PlanSpec,
} from '../../engine/plans.js';
import { type Kind, KindError, KindFileError } from './kinds.js';
import { JsonLineError, type LocatedJson, parseLocatedJson } from './located-json.js';

/** A plans file larger than this is refused unread (a few dozen plans take a few KiB). */
export const MAX_PLANS_FILE_BYTES = 1024 * 1024;
/** Plans in force at most, the built-in four included (each is a label value of the metrics). */
export const MAX_PLANS = 64;

/**
 * One figure of a plan: its field in the file, its property, its bounds, whether null (never
 * limited) is allowed, and whether a plan may leave it out (then: a built-in plan's own figure,
 * an added plan `optional.added`).
 */
interface Field {
  readonly property: keyof PlanFigures;
  readonly min: number;
  readonly max: number;
  readonly nullable: boolean;
  /** The figure of a plan that does not give it: a built-in plan's own, or this for a plan the file adds. */
  readonly optional?: { readonly added: number };
}

/** Every field a plan gives, in the file's words. */
export const PLAN_FIELDS: Readonly<Record<string, Field>> = Object.freeze({
  rpm: { property: 'rpm', min: 1, max: 1_000_000, nullable: true },
  daily_quota: { property: 'dailyQuota', min: 1, max: 1_000_000_000_000, nullable: true },
  batch: { property: 'batch', min: 1, max: 1_000, nullable: false },
  rows_per_call: { property: 'rowsPerCall', min: 1, max: 100_000, nullable: false },
  export_rows: { property: 'exportRows', min: 0, max: 1_000_000_000_000, nullable: true, optional: { added: 0 } },
  connections: {
    property: 'connections',
    min: 1,
    max: 100_000,
    nullable: true,
    optional: { added: BUILT_IN_PLANS.free.connections! },
  },
  subscriptions: {
    property: 'subscriptions',
    min: 1,
    max: 1_000_000,
    nullable: true,
    optional: { added: BUILT_IN_PLANS.free.subscriptions! },
  },
});

const FIELD_NAMES = Object.keys(PLAN_FIELDS);
/** The fields every plan named must give (the export allowance and the stream limits may be left out). */
const REQUIRED_FIELDS = FIELD_NAMES.filter((field) => PLAN_FIELDS[field].optional === undefined);
const grouped = (n: number): string => n.toLocaleString('en-US');

/** What `field` accepts, completing "<field> must …". */
function accepts(f: Field): string {
  return `be a whole number from ${grouped(f.min)} to ${grouped(f.max)}${f.nullable ? ' or null (never limited)' : ''}`;
}

/** A JSON value as a message shows it (short). */
function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The plans in force that `text` (the file's contents) gives: the built-in plans with the
 * figures it names, and the plans it adds. Every plan it names gives every required field
 * (an optional one left out keeps the built-in plan's figure, or its `added` value for an
 * added plan); a built-in plan it does not name keeps the spec's figures. Throws {@link KindFileError}
 * naming `file` and the line of the mistake.
 */
export function plansFromText(text: string, file: string): Plans {
  const wrong = (line: number, reason: string): never => {
    throw new KindFileError(file, line, reason);
  };
  let doc: LocatedJson;
  try {
    doc = parseLocatedJson(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    if (error instanceof JsonLineError) wrong(error.line, `not JSON: ${error.message}`);
    throw error;
  }
  const top = doc.value;
  if (!isObject(top))
    return wrong(
      doc.line,
      `expected one JSON object of plan name → {${REQUIRED_FIELDS.join(', ')}[, ${FIELD_NAMES.filter((f) => !REQUIRED_FIELDS.includes(f)).join(', ')}]}, found ${shown(top)}`,
    );
  const given = new Map<string, PlanSpec>();
  let added = 0;
  for (const [name, figures] of Object.entries(top)) {
    const line = doc.lineOf(top, name);
    if (!PLAN_NAME.test(name))
      wrong(line, `plan name '${name}' must be a lower-case letter then up to 31 of a-z, 0-9, _ and -`);
    if (!isBuiltInPlan(name) && BUILT_IN_PLAN_NAMES.length + ++added > MAX_PLANS) {
      wrong(
        line,
        `plan '${name}': at most ${MAX_PLANS} plans, the ${BUILT_IN_PLAN_NAMES.length} built-in ones included`,
      );
    }
    if (!isObject(figures))
      wrong(line, `plan '${name}' must be an object {${REQUIRED_FIELDS.join(', ')}, …}, found ${shown(figures)}`);
    const spec: Record<string, unknown> = { name };
    for (const [field, v] of Object.entries(figures as Record<string, unknown>)) {
      const at = doc.lineOf(figures as object, field);
      const f = Object.hasOwn(PLAN_FIELDS, field) ? PLAN_FIELDS[field] : undefined;
      if (f === undefined)
        return wrong(at, `plan '${name}': unknown field '${field}' (the fields are ${FIELD_NAMES.join(', ')})`);
      const ok = v === null ? f.nullable : typeof v === 'number' && Number.isInteger(v) && v >= f.min && v <= f.max;
      if (!ok) wrong(at, `plan '${name}': ${field} must ${accepts(f)}, got ${shown(v)}`);
      // Internal keys (monitoring, load tests) are never limited: only their batch and page size may change.
      if (name === 'internal' && f.nullable && v !== null)
        wrong(at, `plan 'internal': ${field} must be null (internal keys are never rate- or quota-limited)`);
      spec[f.property] = v;
    }
    const missing = REQUIRED_FIELDS.filter((field) => !(PLAN_FIELDS[field].property in spec));
    if (missing.length > 0)
      wrong(
        line,
        `plan '${name}' lacks ${missing.join(', ')} (every plan named gives all of ${REQUIRED_FIELDS.join(', ')})`,
      );
    for (const f of Object.values(PLAN_FIELDS))
      if (f.optional !== undefined && !(f.property in spec))
        spec[f.property] = isBuiltInPlan(name) ? BUILT_IN_PLANS[name][f.property] : f.optional.added;
    given.set(name, spec as unknown as PlanSpec);
  }
  const specs = [
    ...BUILT_IN_PLAN_NAMES.map((name) => given.get(name) ?? { name, ...BUILT_IN_PLANS[name] }),
    ...[...given.values()].filter((s) => !isBuiltInPlan(s.name)),
  ];
  return new Plans(specs, file);
}

/** Why `path` cannot be read as a plans file, in words, or null when it can be tried. */
function fileProblem(path: string): string | null {
  try {
    const s = statSync(path);
    if (s.isDirectory()) return 'be a file, not a folder';
    if (s.size > MAX_PLANS_FILE_BYTES)
      return `be a file of at most ${MAX_PLANS_FILE_BYTES / 1024 / 1024} MiB (it has ${grouped(s.size)} bytes)`;
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `be a readable file (${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'ENOTDIR' ? 'a parent is not a folder' : String(code)})`;
  }
}

/**
 * PLANS_FILE's kind: the value is the plans in force. Unlike the other kinds it reads its file
 * (whole, once, at start): a file that cannot be read is "must be a readable file"; one that
 * reads but is wrong names file:line.
 */
export const plansFile: Kind<Plans> = {
  accepts: 'JSON file of plans',
  takesValue: true,
  parse(path) {
    const problem = fileProblem(path);
    if (problem !== null) throw new KindError(problem);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new KindError(`be a readable file (${code === 'EACCES' ? 'permission denied' : String(code)})`);
    }
    return plansFromText(text, path);
  },
};
