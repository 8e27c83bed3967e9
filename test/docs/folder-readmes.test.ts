// Folder READMEs that stay true: each source folder's README.md names every file and subfolder
// the folder holds, and names nothing the folder does not hold; and what their prose says that the
// tree can show holds too (the modules they name exist, a data request's stages are the ones the
// code runs in that order, the kernels engine/README.md lists are the kernels, respond.ts is the
// one way an answer leaves). The layering they state is held by layers.test.ts.
//
// How a README names an entry: in its `## Files` section (up to the next `#` or `##` heading),
// every list item or table row whose text starts with a name in backticks names that one entry,
// and that name must be followed on the same line by what the entry does:
//
//   - `server.ts` — the HTTP server …        | `pool/` | the kernel pool … |
//
// A file is named as it is spelt (`mdq.fbs`), a subfolder with a trailing slash (`pool/`); one
// entry per line, only the folder's own children (no paths). The README does not name itself.
// The rest of a README (other sections, prose, further names on an entry's line) is read only by
// the checks of its prose at the end of this file.
//
// The source folders: compose/, engine/, loaders/, transport/, bench/, deploy/ and scripts/ with every folder
// below them, plus test/ itself and test/helpers/ (the other test folders mirror the source, one
// test file per subject). Read from the source tree, not dist/; what .gitignore ignores (dist/,
// var/, bench/results/, *.log, …) is not there in a fresh clone, so it is neither required nor
// allowed.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, sources } from '../helpers/source-tree.js';

/** Folders checked with every folder below them. */
const TREES = ['compose', 'engine', 'loaders', 'transport', 'bench', 'deploy', 'scripts'];
/** Folders checked alone. */
const SINGLE = ['test', 'test/helpers'];

interface IgnoreRule {
  negated: boolean;
  dirOnly: boolean;
  /** Matched against the whole path from the root when the pattern has a slash, else against the last name. */
  anchored: boolean;
  pattern: RegExp;
}

/** The rules of the root .gitignore (the subset of its syntax this repository uses: globs, `!`, trailing `/`). */
function ignoreRules(): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')) {
    line = line.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const source = line
      .split('')
      .map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')
      .replace(/\[\^\/\]\*\[\^\/\]\*/g, '.*');
    rules.push({ negated, dirOnly, anchored, pattern: new RegExp(`^${source}$`) });
  }
  return rules;
}

const RULES = ignoreRules();

/** Whether git ignores `path` (relative to the root, `/`-separated); the last matching rule decides. */
function ignored(path: string, isDir: boolean): boolean {
  let result = false;
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (const rule of RULES) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.pattern.test(rule.anchored ? path : name)) result = !rule.negated;
  }
  return result;
}

/** The entries a fresh clone has in `folder`: files by name, subfolders as `name/`, sorted; the README left out. */
function entriesOf(folder: string): string[] {
  const entries: string[] = [];
  for (const d of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${d.name}`;
    if (d.name === 'README.md' || ignored(path, d.isDirectory())) continue;
    entries.push(d.isDirectory() ? `${d.name}/` : d.name);
  }
  return entries.sort();
}

/** `folder` and, for a tree, every folder below it that a fresh clone has. */
function foldersOf(folder: string, recursive: boolean): string[] {
  const out = [folder];
  if (recursive)
    for (const e of entriesOf(folder)) if (e.endsWith('/')) out.push(...foldersOf(`${folder}/${e.slice(0, -1)}`, true));
  return out;
}

interface Named {
  names: string[];
  /** Entry lines with no words after the name. */
  undescribed: string[];
}

/** What the README's `## Files` section names (see the rule at the top), or null without such a section. */
function namedIn(readme: string): Named | null {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => /^##\s+Files\s*$/.test(l));
  if (start < 0) return null;
  const names: string[] = [];
  const undescribed: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    const entry = /^\s*(?:[-*]|\|)\s*`([^`]+)`(.*)$/.exec(line);
    if (entry === null) continue;
    names.push(entry[1]);
    if (!/\p{L}/u.test(entry[2])) undescribed.push(line);
  }
  return { names, undescribed };
}

const FOLDERS = [...TREES.flatMap((t) => foldersOf(t, true)), ...SINGLE.flatMap((s) => foldersOf(s, false))].filter(
  (f) => existsSync(join(ROOT, f)),
);

test('the folders checked are found in the source tree', () => {
  for (const f of ['engine', 'engine/pool', 'loaders/snapshot', 'transport/admin/assets', 'bench/http', 'test/helpers'])
    assert.ok(FOLDERS.includes(f), `${f} is among the folders checked`);
  assert.ok(
    !FOLDERS.some((f) => f.split('/').includes('dist') || f.split('/').includes('node_modules')),
    'no build output',
  );
});

test('the rule reads list items and table rows of the Files section only', () => {
  const readme =
    '# x\n\nProse naming `other.ts`.\n\n## Files\n\n| file | job |\n|---|---|\n| `a.ts` | does a |\n- `b/` — holds b\n- `c.ts`\n\n## More\n\n- `d.ts` — not read\n';
  assert.deepEqual(namedIn(readme), { names: ['a.ts', 'b/', 'c.ts'], undescribed: ['- `c.ts`'] });
  assert.equal(namedIn('# x\n\n- `a.ts` — no Files section\n'), null);
});

for (const folder of FOLDERS) {
  test(`${folder}/README.md names every file and subfolder of ${folder}/, and nothing else`, () => {
    const path = join(ROOT, folder, 'README.md');
    assert.ok(existsSync(path), `${folder}/README.md exists`);
    const named = namedIn(readFileSync(path, 'utf8'));
    assert.ok(named !== null, `${folder}/README.md has a "## Files" section`);
    const present = entriesOf(folder);
    const problems = {
      missing: present.filter((e) => !named.names.includes(e)),
      noLongerThere: named.names.filter((n) => !present.includes(n)),
      namedTwice: named.names.filter((n, i) => named.names.indexOf(n) !== i),
      undescribed: named.undescribed,
    };
    assert.deepEqual(
      problems,
      { missing: [], noLongerThere: [], namedTwice: [], undescribed: [] },
      `${folder}/README.md names each entry of ${folder}/ once, says what it does, and names nothing else`,
    );
  });
}

// ---- What the prose says ------------------------------------------------------------------------

/** Folders a README speaks of besides its own and its ancestors: the build writes the TypeScript client's sources. */
const SPOKEN_OF: Readonly<Record<string, string[]>> = { 'transport/build': ['clients/typescript'] };

/** Whether `name` (a path as a README spells it) is a file seen from `folder`: from it or an ancestor, below it, or a folder it speaks of. */
function findsModule(folder: string, name: string, below: string[]): boolean {
  const bases = [...(SPOKEN_OF[folder] ?? [])];
  for (let f = folder; f !== '.' && f !== ''; f = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.') bases.push(f);
  bases.push('');
  return bases.some((b) => existsSync(join(ROOT, b, name))) || below.some((path) => path.endsWith(`/${name}`));
}

test("every module a folder README's prose names in backticks (`….ts`) exists", () => {
  const unknown: string[] = [];
  for (const folder of FOLDERS) {
    const text = readFileSync(join(ROOT, folder, 'README.md'), 'utf8');
    const below = sources(folder);
    for (const m of text.matchAll(/`([\w./-]+\.ts)`/g))
      if (!findsModule(folder, m[1], below)) unknown.push(`${folder}/README.md: ${m[1]}`);
  }
  assert.deepEqual(unknown, []);
});

/** A README's (or a source file's comments') text with line breaks, `//` and runs of spaces as one space. */
const flat = (path: string): string =>
  readFileSync(join(ROOT, path), 'utf8')
    .replace(/^\s*\/\/ ?/gm, ' ')
    .replace(/\s+/g, ' ');

test("a data request's stages are named alike in both READMEs and in data-exchange.ts, in the order the code runs them", () => {
  const chain = (text: string): string[] => /\bframe(?: → \w+)+/.exec(text)?.[0].split(' → ') ?? [];
  const lifecycle = flat('transport/lifecycle/README.md');
  const paragraph = lifecycle.slice(lifecycle.indexOf('A data request'), lifecycle.indexOf('## Files'));
  const named = {
    'transport/README.md': chain(flat('transport/README.md')),
    'transport/lifecycle/README.md': [...paragraph.matchAll(/\*\*(\w+)\*\*/g)].map((m) => m[1]),
    'data-exchange.ts (its opening)': chain(flat('transport/lifecycle/data-exchange.ts')),
  };
  // In the code: a doc comment opening `Stage:` on the method of each stage, in the order of the file;
  // route is uWS's match of the pattern (before the handler runs), observe the context's `observed`.
  const code = readFileSync(join(ROOT, 'transport/lifecycle/data-exchange.ts'), 'utf8');
  const documented = [...code.matchAll(/\/\*\*\s*(?:\*\s*)?([A-Z][a-z]+):/g)].map((m) => m[1].toLowerCase());
  const stages = documented.filter((s, i) => documented.indexOf(s) === i);
  assert.ok(
    /the route stage/.test(code) && /ctx\.observed\(/.test(code),
    'the route and observe stages are where the opening says',
  );
  const runs = [stages[0], 'route', ...stages.slice(1), 'observe'];
  assert.equal(runs.length, 11, `eleven stages in the code: ${runs.join(' → ')}`);
  for (const [where, list] of Object.entries(named))
    assert.deepEqual(list, runs, `${where} names the stages the code runs`);
});

test('engine/README.md names every kernel of engine/kernels/ on its kernels/ line, and nothing else', () => {
  const readme = readFileSync(join(ROOT, 'engine/README.md'), 'utf8');
  const entry = /^- `kernels\/`[\s\S]*?(?=^- `)/m.exec(readme)?.[0] ?? '';
  const named = [...entry.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort();
  const kernels = readdirSync(join(ROOT, 'engine/kernels'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
  assert.deepEqual(named, kernels);
});

test('respond.ts is the one way an answer leaves (transport/README.md): no other module writes a status, header, body or message', () => {
  /** What writes to a uWS response or socket: status, headers, a body's end, a message. */
  const WRITES =
    /\.(writeStatus|writeHeader|endWithoutBody|tryEnd)\(|\bres\.(end|write)\(|\bws\.send\(|\bapp\.publish\(/g;
  /** An export's body is written by its StreamedBody, in the thread's turns, once respond.ts's startStream began it. */
  const STREAM_BODY = 'transport/lifecycle/streamed-body.ts';
  const writers: string[] = [];
  for (const file of [...sources('transport'), ...sources('compose'), 'main.ts', 'serving-thread.ts']) {
    if (file === 'transport/respond.ts') continue;
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(WRITES))
      if (!(file === STREAM_BODY && /^\.?res\.(end|write)\($/.test(m[0].replace(/^\./, ''))))
        writers.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(writers, []);
  const respond = readFileSync(join(ROOT, 'transport/respond.ts'), 'utf8');
  for (const call of ['writeStatus(', 'writeHeader(', 'endWithoutBody(', '.send(', 'app.publish(', 'body.start()'])
    assert.ok(respond.includes(call), `respond.ts writes what the others do not (${call})`);
});
