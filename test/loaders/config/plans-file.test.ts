// PLANS_FILE read and checked: the plans in force it gives, and each kind of mistake at its line.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { DEFAULT_PLANS } from '../../../engine/plans.js';
import { KindError, KindFileError } from '../../../loaders/config/kinds.js';
import { MAX_PLANS, MAX_PLANS_FILE_BYTES, plansFile, plansFromText } from '../../../loaders/config/plans-file.js';
import { readSettings, SettingError } from '../../../loaders/config/read-settings.js';
import { KEYS, type Program, SERVER } from '../../../loaders/config/settings.js';

const figures = (name: string, text: string) => {
  const p = plansFromText(text, 'plans.json').get(name)!;
  return [p.rpm, p.dailyQuota, p.batch, p.rowsPerCall];
};

test('an empty object changes nothing: the built-in plans with the spec figures', () => {
  const plans = plansFromText('{}', 'plans.json');
  assert.deepEqual(plans.list, DEFAULT_PLANS.list);
  assert.equal(plans.source, 'plans.json');
});

test('a new plan is added after the built-in ones, in the order of the file', () => {
  const plans = plansFromText(
    '{"gold": {"rpm": 5, "daily_quota": 20, "batch": 2, "rows_per_call": 3}, "burst": {"rpm": 3, "daily_quota": null, "batch": 50, "rows_per_call": 500}}',
    'plans.json',
  );
  assert.deepEqual(plans.names, ['free', 'pro', 'enterprise', 'internal', 'gold', 'burst']);
  assert.deepEqual(
    figures('gold', JSON.stringify({ gold: { rpm: 5, daily_quota: 20, batch: 2, rows_per_call: 3 } })),
    [5, 20, 2, 3],
  );
  assert.equal(plans.get('burst')!.dailyQuota, null, 'null: never limited');
});

test("the stream limits (connections, subscriptions) are optional: given, null (unlimited), or the built-in plan's own, an added plan free's", () => {
  const plans = plansFromText(
    JSON.stringify({
      pro: { rpm: 120, daily_quota: 200000, batch: 50, rows_per_call: 500, connections: 9 },
      gold: { rpm: 5, daily_quota: 20, batch: 2, rows_per_call: 3 },
      wide: { rpm: 5, daily_quota: 20, batch: 2, rows_per_call: 3, connections: null, subscriptions: 1000 },
    }),
    'plans.json',
  );
  const streams = (name: string) => [plans.get(name)!.connections, plans.get(name)!.subscriptions];
  assert.deepEqual(streams('pro'), [9, 50], "pro's subscriptions left out: its own 50");
  assert.deepEqual(streams('gold'), [1, 5], "an added plan without them: free's");
  assert.deepEqual(streams('wide'), [null, 1000]);
  assert.deepEqual(streams('enterprise'), [20, 200]);
  assert.deepEqual(streams('internal'), [null, null]);
});

test("a built-in plan named takes the file's figures; the others keep the spec's", () => {
  const plans = plansFromText(
    '{"free": {"rpm": 7, "daily_quota": 100, "batch": 1, "rows_per_call": 4}, "internal": {"rpm": null, "daily_quota": null, "batch": 20, "rows_per_call": 2000}}',
    'plans.json',
  );
  assert.deepEqual(
    [plans.get('free')!.rpm, plans.get('free')!.dailyQuota, plans.get('free')!.batch, plans.get('free')!.rowsPerCall],
    [7, 100, 1, 4],
  );
  assert.deepEqual(
    [
      plans.get('internal')!.rpm,
      plans.get('internal')!.dailyQuota,
      plans.get('internal')!.batch,
      plans.get('internal')!.rowsPerCall,
    ],
    [null, null, 20, 2000],
    "internal's batch and page change",
  );
  assert.deepEqual(plans.get('pro'), DEFAULT_PLANS.get('pro'));
  assert.deepEqual(plans.names, DEFAULT_PLANS.names, 'no plan added, none removed');
});

test('a UTF-8 byte order mark and CRLF line ends are fine', () => {
  assert.equal(
    plansFromText(
      '\uFEFF{\r\n "gold": {"rpm": 5, "daily_quota": 20, "batch": 2, "rows_per_call": 3}\r\n}\r\n',
      'p.json',
    ).has('gold'),
    true,
  );
});

const GOLD = '"rpm": 5, "daily_quota": 20, "batch": 2, "rows_per_call": 3';

/** Each kind of mistake, its line, and what the reason must say. */
const MISTAKES: [string, string, number, RegExp][] = [
  ['not JSON: a trailing comma', `{\n  "gold": {${GOLD}},\n}\n`, 3, /^not JSON: expected a member name/],
  ['not JSON: an unclosed object', `{\n  "gold": {${GOLD}}\n`, 3, /^not JSON: .*end of the file/],
  ['not JSON: comments', `{\n  // our plans\n  "gold": {${GOLD}}\n}`, 2, /^not JSON/],
  ['an empty file', '', 1, /^not JSON/],
  [
    'internal given a rate',
    '{\n  "internal": {"rpm": 1000, "daily_quota": null, "batch": 50, "rows_per_call": 500}\n}',
    2,
    /^plan 'internal': rpm must be null \(internal keys are never rate- or quota-limited\)$/,
  ],
  [
    'internal given a quota',
    '{\n  "internal": {\n    "rpm": null,\n    "daily_quota": 5,\n    "batch": 50, "rows_per_call": 500}\n}',
    4,
    /^plan 'internal': daily_quota must be null/,
  ],
  [
    'internal given a connection limit',
    '{\n  "internal": {"rpm": null, "daily_quota": null, "batch": 50, "rows_per_call": 500,\n    "connections": 3}\n}',
    3,
    /^plan 'internal': connections must be null/,
  ],
  [
    'a stream limit out of range',
    `{\n  "gold": {${GOLD},\n    "subscriptions": 0}\n}`,
    3,
    /^plan 'gold': subscriptions must be a whole number from 1 to 1,000,000 or null \(never limited\), got 0$/,
  ],
  ['an array, not an object', `\n[{${GOLD}}]`, 2, /^expected one JSON object of plan name/],
  ['a plan that is not an object', '{\n  "gold": 5\n}', 2, /^plan 'gold' must be an object/],
  ['a plan name with a capital', `{\n  "Gold": {${GOLD}}\n}`, 2, /^plan name 'Gold' must be/],
  ['a plan name too long', `{\n  "${'a'.repeat(33)}": {${GOLD}}\n}`, 2, /^plan name 'a{33}' must be/],
  [
    'a plan named twice',
    `{\n  "gold": {${GOLD}},\n  "gold": {${GOLD}}\n}`,
    3,
    /^not JSON: 'gold' is given twice in one object \(first on line 2\)/,
  ],
  ['an unknown field', `{\n  "gold": {\n    ${GOLD},\n    "rmp": 5\n  }\n}`, 4, /^plan 'gold': unknown field 'rmp'/],
  [
    'a missing field',
    '{\n  "gold": {"rpm": 5, "batch": 2, "rows_per_call": 3}\n}',
    2,
    /^plan 'gold' lacks daily_quota/,
  ],
  [
    'a missing field of a built-in plan',
    '{\n  "free": {"rpm": 60}\n}',
    2,
    /^plan 'free' lacks daily_quota, batch, rows_per_call/,
  ],
  [
    'a string for a number',
    '{\n  "gold": {\n    "rpm": "5",\n    "daily_quota": 20, "batch": 2, "rows_per_call": 3}\n}',
    3,
    /^plan 'gold': rpm must be a whole number from 1 to 1,000,000 or null \(never limited\), got "5"$/,
  ],
  [
    'a fraction',
    '{\n  "gold": {"rpm": 5, "daily_quota": 20.5, "batch": 2, "rows_per_call": 3}\n}',
    2,
    /^plan 'gold': daily_quota must be a whole number .*got 20.5$/,
  ],
  [
    'zero rows per call',
    '{\n  "gold": {"rpm": 5, "daily_quota": 20, "batch": 2,\n    "rows_per_call": 0}\n}',
    3,
    /^plan 'gold': rows_per_call must be a whole number from 1 to 100,000, got 0$/,
  ],
  [
    'a negative rate',
    '{\n  "gold": {"rpm": -3, "daily_quota": 20, "batch": 2, "rows_per_call": 3}\n}',
    2,
    /^plan 'gold': rpm must .*got -3$/,
  ],
  [
    'a batch above its bound',
    '{\n  "gold": {"rpm": 5, "daily_quota": 20, "batch": 1001, "rows_per_call": 3}\n}',
    2,
    /^plan 'gold': batch must be a whole number from 1 to 1,000, got 1001$/,
  ],
  [
    'null for a batch',
    '{\n  "gold": {"rpm": 5, "daily_quota": 20, "batch": null, "rows_per_call": 3}\n}',
    2,
    /^plan 'gold': batch must be a whole number from 1 to 1,000, got null$/,
  ],
  ['a built-in plan removed with null', '{\n  "pro": null\n}', 2, /^plan 'pro' must be an object/],
  [
    'too many plans',
    `{\n${Array.from({ length: MAX_PLANS - 3 }, (_, i) => `  "p${i}": {${GOLD}}`).join(',\n')}\n}`,
    MAX_PLANS - 2,
    new RegExp(`^plan 'p${MAX_PLANS - 4}': at most ${MAX_PLANS} plans`),
  ],
];

for (const [what, text, line, reason] of MISTAKES) {
  test(`${what}: refused at line ${line}`, () => {
    assert.throws(
      () => plansFromText(text, '/etc/mdq/plans.json'),
      (error: unknown) => {
        assert.ok(error instanceof KindFileError, `a file error: ${String(error)}`);
        assert.equal(error.file, '/etc/mdq/plans.json');
        assert.equal(error.line, line);
        assert.match(error.message, reason);
        return true;
      },
    );
  });
}

test(`${MAX_PLANS} plans in all are fine`, () => {
  const text = `{${Array.from({ length: MAX_PLANS - 4 }, (_, i) => `"p${i}": {${GOLD}}`).join(',')}}`;
  assert.equal(plansFromText(text, 'p.json').list.length, MAX_PLANS);
});

function folder(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-plans-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('as a setting: a missing file, a folder and a file over 1 MiB are "must" mistakes, without a line', (t) => {
  const dir = folder(t);
  const big = join(dir, 'big.json');
  writeFileSync(big, `{"gold": {${GOLD}}}`.padEnd(MAX_PLANS_FILE_BYTES + 1, ' '));
  for (const [path, reason] of [
    [join(dir, 'none.json'), /^be a readable file \(no such file\)$/],
    [dir, /^be a file, not a folder$/],
    [big, /^be a file of at most 1 MiB/],
  ] as const) {
    assert.throws(
      () => plansFile.parse(path),
      (error: unknown) => error instanceof KindError && !(error instanceof KindFileError) && reason.test(error.message),
      path,
    );
  }
});

test('as a setting of the server and of the keys command: one line naming the variable or flag, the file and the line', (t) => {
  const dir = folder(t);
  const path = join(dir, 'plans.json');
  writeFileSync(path, '{\n  "gold": {"rpm": 5, "daily_quota": 20, "batch": 0, "rows_per_call": 3}\n}\n');
  for (const program of [SERVER, KEYS] as Program[]) {
    assert.throws(
      () => readSettings(program, [], { PLANS_FILE: path }),
      new SettingError(`PLANS_FILE ${path}:2: plan 'gold': batch must be a whole number from 1 to 1,000, got 0`),
    );
    assert.throws(
      () => readSettings(program, ['--plans-file', path], {}),
      new SettingError(`--plans-file ${path}:2: plan 'gold': batch must be a whole number from 1 to 1,000, got 0`),
    );
  }
  writeFileSync(path, '{"gold": {"rpm": 5, "daily_quota": 20, "batch": 2, "rows_per_call": 3}}');
  const reading = readSettings(SERVER, [], { PLANS_FILE: path });
  assert.ok(!reading.help && reading.values.plansFile?.has('gold'), 'the value is the plans in force');
});

test('export_rows may be left out: a built-in plan keeps its own, an added plan gets none; given, it is 0 to 10^12 or null, and internal stays null', () => {
  const plans = plansFromText(
    '{"gold": {"rpm": 3, "daily_quota": 5, "batch": 2, "rows_per_call": 3},\n "silver": {"rpm": 3, "daily_quota": 5, "batch": 2, "rows_per_call": 3, "export_rows": 1000},\n "pro": {"rpm": 3, "daily_quota": 5, "batch": 2, "rows_per_call": 3}}',
    'plans.json',
  );
  assert.deepEqual(
    ['free', 'pro', 'enterprise', 'internal', 'gold', 'silver'].map((n) => plans.get(n)!.exportRows),
    [0, 20_000_000, 200_000_000, null, 0, 1000],
  );
  assert.throws(
    () =>
      plansFromText(
        '{"gold": {"rpm": 3, "daily_quota": 5, "batch": 2, "rows_per_call": 3, "export_rows": -1}}',
        'p.json',
      ),
    /plan 'gold': export_rows must be a whole number from 0 to 1,000,000,000,000 or null/,
  );
  assert.throws(
    () =>
      plansFromText(
        '{"internal": {"rpm": null, "daily_quota": null, "batch": 50, "rows_per_call": 500, "export_rows": 5}}',
        'p.json',
      ),
    /plan 'internal': export_rows must be null/,
  );
});
