// The settings table of docs/operators.md, generated from the declarations: `npm run settings-table` rewrites it, a test checks it.

import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { flagForm, shownDefault } from './read-settings.js';
import { SERVER_SETTINGS } from './settings.js';

/** The lines that enclose the generated table in docs/operators.md. */
export const TABLE_START =
  '<!-- settings table: generated from loaders/config/settings.ts by `npm run settings-table`; a test checks it -->';
export const TABLE_END = '<!-- end of settings table -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|');
const code = (text: string): string => (text === '' ? '' : `\`${text}\``);

/** The markdown table of the server's settings, one row per setting, in declaration order. */
export function settingsTable(): string {
  const rows = ['| variable | flag | default | accepts | what |', '|---|---|---|---|---|'];
  for (const s of Object.values(SERVER_SETTINGS)) {
    const flag = s.flag === null ? '(environment only)' : code(flagForm(s).split(' ')[0]);
    rows.push(
      `| ${code(s.env ?? '')} | ${cell(flag)} | ${cell(s.default === null ? 'unset' : (s.shownDefault ?? code(shownDefault(s))))} | ${cell(s.kind.accepts)} | ${cell(s.doc)} |`,
    );
  }
  return rows.join('\n');
}

/** `readme` with the text between the markers replaced by the current table; throws without the markers. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/operators.md lacks the settings table markers (${TABLE_START} … ${TABLE_END})`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = new URL('../../../docs/operators.md', import.meta.url);
  const before = readFileSync(path, 'utf8');
  const after = withSettingsTable(before);
  if (after !== before) writeFileSync(path, after);
  process.stdout.write(
    after === before
      ? 'docs/operators.md: settings table already current\n'
      : 'docs/operators.md: settings table rewritten\n',
  );
}
