// The settings table of docs/operators.md is the one the declarations make, and the Operators section names no undeclared variable.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { settingsTable, TABLE_END, TABLE_START, withSettingsTable } from '../../../loaders/config/readme-table.js';
import { ALL_SETTINGS, SERVER_SETTINGS } from '../../../loaders/config/settings.js';

const README = readFileSync(new URL('../../../../docs/operators.md', import.meta.url), 'utf8');
/** docs/operators.md's Operators table and its Settings subsection (up to "### The snapshot folder", whose formats are not settings). */
const OPERATORS = README.slice(README.indexOf('## Operators'), README.indexOf('### The snapshot folder'));

test('the settings table in docs/operators.md is the generated one (npm run settings-table rewrites it)', () => {
  assert.equal(withSettingsTable(README), README, 'docs/operators.md is current');
  assert.ok(README.includes(`${TABLE_START}\n${settingsTable()}\n${TABLE_END}`));
});

test('the table has one row per server setting, with its variable and flag', () => {
  const rows = settingsTable().split('\n').slice(2);
  const settings = Object.values(SERVER_SETTINGS);
  assert.equal(rows.length, settings.length);
  settings.forEach((s, i) => {
    assert.ok(rows[i].startsWith(`| \`${s.env}\` |`), `row ${i} is ${s.env}`);
    if (s.flag !== null) assert.ok(rows[i].includes(`\`--${s.flag}`), `row ${i} shows --${s.flag}`);
  });
});

test('every ALL_CAPS name the Operators prose mentions in code is a declared variable, and every variable is in the section', () => {
  const declared = new Set(ALL_SETTINGS.flatMap((s) => (s.env === null ? [] : [s.env])));
  const prose = OPERATORS.slice(0, OPERATORS.indexOf(TABLE_START)) + OPERATORS.slice(OPERATORS.indexOf(TABLE_END));
  const named = [...prose.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]).filter((n) => !n.startsWith('SIG'));
  assert.ok(named.length > 0);
  for (const name of named) assert.ok(declared.has(name), `${name} is declared in loaders/config/settings.ts`);
  for (const name of declared) assert.ok(OPERATORS.includes(`\`${name}\``), `${name} appears in the Operators section`);
});
