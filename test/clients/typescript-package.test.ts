// The TypeScript client as its users install it: `npm pack` of clients/typescript, the tarball
// installed into an empty project with its own package.json, `tsc --noEmit --skipLibCheck false`
// on the README's examples (they compile) and on a program with a wrong field, a wrong screen
// column, a wrong period, a wrong stream channel and a wrong field of a pushed bars row (each line
// an error), then the examples compiled and run against a real server, the values they leave held to
// plain GETs (the stream's example runs in typescript-stream.test.ts, where editions are made).

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { TestServer } from '../helpers/api-server.js';
import { buildOpenApi } from '../../transport/openapi.js';
import { startAnswerServer } from '../helpers/e2e.js';
import { packedClientProject, type UserProject } from '../helpers/packed-client.js';
import { codeBlocks, topLevelNames } from '../helpers/readme-blocks.js';

/** An `x-codeSamples` entry of the OpenAPI document. */
interface Sample {
  lang: string;
  label: string;
  source: string;
}

/** The README examples in TypeScript: the repository's README, then the client's. */
const EXAMPLES = [...codeBlocks('README.md', 'ts'), ...codeBlocks('clients/typescript/README.md', 'ts')];

/**
 * Five mistakes, one a line (lines 3 to 7): a field, a screen column, a period, a stream channel, a
 * field of a pushed bars row. The stream's light entry (`@mdq/client/stream`, for browsers) resolves.
 */
const WRONG = `import { Client } from '@mdq/client';
const client = new Client({ baseUrl: 'http://127.0.0.1:8080', key: 'k' });
await client.klinesBatch('ashare', ['sh600001'], { fields: ['clsoe'] });
await client.screen('ashare', { bounds: { pe_ratoi: { min: 0, max: 15 } } });
await client.klines('ashare', 'sh600001', { period: 'fortnight' });
client.stream([{ channel: 'edition' }]);
for await (const m of client.stream([{ channel: 'bars', market: 'ashare', symbols: '*' }])) if (m.type === 'bars') m.data.sh600001[0].clsoe;
import { stream } from '@mdq/client/stream';
export const light = stream({ baseUrl: 'http://127.0.0.1:8080', key: 'k' }, [{ channel: 'editions' }]);
`;

/** The READMEs' stream examples: type-checked here, run where editions are made (typescript-stream.test.ts). */
const isStream = (block: string): boolean => block.includes('.stream(');

describe('the TypeScript client, packed and installed into an empty project', { timeout: 300_000 }, () => {
  let server: TestServer;
  let user: UserProject;
  let project: string;

  before(async () => {
    server = await startAnswerServer();
    user = await packedClientProject();
    project = user.dir;
    for (const [i, block] of EXAMPLES.entries()) await writeFile(join(project, `readme-${i}.ts`), block);
    await writeFile(join(project, 'wrong.ts'), WRONG);
  });
  after(async () => {
    await server?.close();
    await user?.cleanup();
  });

  const tsc = (files: string[], emit: boolean) => user.tsc(files, emit);

  test('the package ships its types: dist/index.d.ts and the schema it imports, and nothing of src/', async () => {
    const installed = join(project, 'node_modules/@mdq/client/');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.types, 'dist/index.d.ts');
    assert.match(await readFile(join(installed, 'dist/index.d.ts'), 'utf8'), /from '\.\/schema\.js'/);
    assert.match(await readFile(join(installed, 'dist/schema.d.ts'), 'utf8'), /min_pe_ratio\?: number/);
    await assert.rejects(readFile(join(installed, 'src/index.ts')), 'sources stay out of the package');
  });

  test("the READMEs' examples compile with tsc --noEmit, strict, without skipLibCheck", async () => {
    assert.ok(EXAMPLES.length >= 3, `${EXAMPLES.length} examples`);
    const result = await tsc(
      EXAMPLES.map((_, i) => `readme-${i}.ts`),
      false,
    );
    assert.ok(result.ok, `tsc failed:\n${result.out}`);
  });

  test("every operation's TypeScript code sample in the OpenAPI document compiles against the package", async () => {
    const doc = buildOpenApi() as { paths: Record<string, { get?: { 'x-codeSamples'?: Sample[] } }> };
    const samples = Object.values(doc.paths).flatMap((p) =>
      (p.get?.['x-codeSamples'] ?? []).filter((c) => c.lang === 'TypeScript'),
    );
    assert.ok(samples.length >= 14, `${samples.length} samples`);
    for (const [i, c] of samples.entries()) await writeFile(join(project, `sample-${i}.ts`), c.source);
    const result = await tsc(
      samples.map((_, i) => `sample-${i}.ts`),
      false,
    );
    assert.ok(result.ok, `tsc failed:\n${result.out}`);
  });

  test('a wrong field, screen column, period, stream channel or pushed bars field each fail to compile', async () => {
    const result = await tsc(['wrong.ts'], false);
    assert.equal(result.ok, false);
    const lines = [...result.out.matchAll(/^wrong\.ts\((\d+),\d+\): error TS\d+/gm)].map((m) => Number(m[1]));
    assert.deepEqual([...new Set(lines)].sort(), [3, 4, 5, 6, 7], result.out);
    assert.match(result.out, /"clsoe"/);
    assert.match(result.out, /pe_ratoi/);
    assert.match(result.out, /"fortnight"/);
    assert.match(result.out, /wrong\.ts\(6,\d+\): error TS\d+: Type '"edition"' is not assignable/);
    assert.match(result.out, /wrong\.ts\(7,\d+\): error TS\d+: Property 'clsoe' does not exist/);
  });

  test("the READMEs' examples run against the server and hold what their comments say", async () => {
    const compiled = await tsc(
      EXAMPLES.map((_, i) => `readme-${i}.ts`),
      true,
    );
    assert.ok(compiled.ok, compiled.out);
    process.env.MDQ_URL = `http://127.0.0.1:${server.port}`;
    process.env.MDQ_KEY = server.keys.pro;
    const values: Record<string, unknown> = {};
    for (const [i, block] of EXAMPLES.entries()) {
      if (isStream(block)) continue;
      // The example as written, plus one line handing its top-level values to this test.
      const names = topLevelNames(block, /^const (\w+) =/gm);
      const file = join(project, `out/readme-${i}.js`);
      await writeFile(file, `${await readFile(file, 'utf8')}\nexport { ${names.join(', ')} };\n`);
      Object.assign(values, await import(pathToFileURL(file).href));
    }
    const plain = async <T>(path: string): Promise<T> => {
      const res = await server.get(`/api/v1${path}`, { key: server.keys.pro });
      assert.equal(res.status, 200, res.text);
      return res.body as T;
    };
    const screen = await plain<{ total: number; data: unknown[] }>(
      '/ashare/screen?min_pe_ratio=0&max_pe_ratio=15&limit=500',
    );
    assert.ok(screen.total > 0);
    assert.deepEqual(values.rows, screen.data, 'every row the screen matches, every page');
    const day = await plain<{ total: number; data: unknown[] }>('/ashare/klines?date=2025-03-14&limit=500');
    assert.deepEqual(values.day, day.data, "every symbol's row of the day");
    assert.deepEqual(
      values.bars,
      await plain('/ashare/klines?symbols=sh600001,000002.SZ&period=month&adj=qfq&fields=*'),
    );
    const problem = values.problem as { name: string; code: string; status: number };
    assert.deepEqual([problem.name, problem.status, problem.code], ['MdqError', 404, 'unknown_symbol']);
  });
});
