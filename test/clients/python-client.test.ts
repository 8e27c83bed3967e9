// The Python client (clients/python) as its users meet it, against a real server: installed by the
// README's own install lines (a venv of Debian's python3 with its pandas: .ci/run installs
// python3-venv, python3-pip, python3-setuptools, python3-wheel, python3-pandas), its unittest suite run by that
// venv's python, and every Python example of the README and of the client's README run as written,
// the DataFrames they make held to plain GETs of the same data (the stream's example runs in
// python-stream.test.ts, where editions are made); both READMEs name those packages as .ci/run
// installs them. Without those packages the test is skipped saying why; under CI it fails.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { TestServer } from '../helpers/api-server.js';
import { buildOpenApi } from '../../transport/openapi.js';
import { startAnswerServer } from '../helpers/e2e.js';
import {
  installBlock,
  PYTHON_CLIENT,
  type PythonHome,
  pythonHome,
  pythonUnavailable,
} from '../helpers/python-client.js';
import { codeBlocks, REPO } from '../helpers/readme-blocks.js';

const run = promisify(execFile);

/**
 * Runs a README's Python blocks in order in one namespace (as a reader pastes them into one
 * script), PartialPageWarning as an error (an example that says "every page" must not hold one),
 * and prints each DataFrame it left: columns, rows, symbols and closes.
 */
const HARNESS = `
import json, runpy, sys, warnings
from mdq_client import PartialPageWarning
warnings.simplefilter("error", PartialPageWarning)
names = runpy.run_path(sys.argv[1])
out = {}
for name, value in names.items():
    if hasattr(value, "columns") and hasattr(value, "shape"):
        out[name] = {
            "columns": [str(c) for c in value.columns],
            "rows": int(value.shape[0]),
            "symbols": list(dict.fromkeys(value["symbol"])) if "symbol" in value.columns else None,
            "close": [None if c != c else float(c) for c in value["close"]] if "close" in value.columns else None,
        }
print(json.dumps(out))
`;

/** An `x-codeSamples` entry of the OpenAPI document. */
interface Sample {
  lang: string;
  label: string;
  source: string;
}

interface Frame {
  columns: string[];
  rows: number;
  symbols: string[] | null;
  close: (number | null)[] | null;
}

/** The packages of the ```sh block of `readme` that runs apt-get install. */
function aptPackages(readme: string): string[] {
  const blocks = codeBlocks(readme, 'sh').filter((b) => /\bapt-get install\b/.test(b));
  assert.equal(blocks.length, 1, `${readme} shows one apt-get install block`);
  return blocks[0]
    .replace(/^.*apt-get install/s, '')
    .trim()
    .split(/\s+/)
    .filter((w) => !w.startsWith('-'));
}

test('both READMEs name exactly the Debian packages .ci/run installs for the Python client (the install needs each)', () => {
  const ci = readFileSync(new URL('.ci/run', REPO), 'utf8');
  const installed = /missing\+=\((python3 [^)]*)\)/.exec(ci);
  assert.ok(installed !== null, ".ci/run installs the Python client's packages");
  const packages = installed[1].trim().split(/\s+/);
  assert.ok(packages.includes('python3-wheel'), 'pip install --no-build-isolation needs bdist_wheel');
  assert.deepEqual(aptPackages('README.md'), packages);
  assert.deepEqual(aptPackages('clients/python/README.md'), packages);
});

const skip = pythonUnavailable(['pandas', 'venv', 'ensurepip', 'setuptools', 'wheel']);
if (skip !== null) {
  if (process.env.CI === 'true') test('Python client', () => assert.fail(`${skip}; CI must run the Python client`));
  else test('Python client', { skip }, () => {});
} else
  describe('the Python client, installed as the README says', { timeout: 300_000 }, () => {
    let server: TestServer;
    let user: PythonHome;
    let home: string;
    let python: string;
    let env: NodeJS.ProcessEnv;

    before(async () => {
      server = await startAnswerServer();
      user = await pythonHome('mdq-python-', { MDQ_URL: `http://127.0.0.1:${server.port}`, MDQ_KEY: server.keys.pro });
      ({ home, python, env } = user);
    });
    after(async () => {
      await server?.close();
      await user?.cleanup();
    });

    /** What a plain GET of /api/v1<path> answers (JSON). */
    async function plain<T>(path: string): Promise<T> {
      const res = await server.get(`/api/v1${path}`, { key: server.keys.pro });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res.body as T;
    }

    /** The frames a README's Python blocks leave, run by the venv's python. */
    async function framesOf(readme: string): Promise<Record<string, Frame>> {
      const script = join(home, `${readme.replace(/\W/g, '_')}.py`);
      const blocks = codeBlocks(readme, 'python').filter((b) => !b.includes('.stream(')); // the stream's: python-stream.test.ts
      await writeFile(script, blocks.join('\n'));
      await writeFile(join(home, 'harness.py'), HARNESS);
      const { stdout } = await run(python, [join(home, 'harness.py'), script], { cwd: home, env }).catch(
        (error: { stderr?: string }) => assert.fail(`${readme}'s examples failed:\n${error.stderr ?? ''}`),
      );
      return JSON.parse(stdout) as Record<string, Frame>;
    }

    test("the README's install lines work on Debian's python3 as written, offline, and the client's README shows the same", async () => {
      assert.equal(installBlock('clients/python/README.md'), installBlock('README.md'));
      await user.install();
      const where = await run(python, ['-c', 'import mdq_client, pandas; print(mdq_client.__file__)'], { env });
      assert.match(where.stdout, /\.venv\/lib\/python3[.\d]*\/site-packages\/mdq_client\//, 'installed in the venv');
    });

    test('its unittest suite passes, run by the installed client', async () => {
      const result = await run(python, ['-m', 'unittest', 'discover', '-s', join(PYTHON_CLIENT, 'tests'), '-v'], {
        cwd: home,
        env,
      }).catch((error: { stdout?: string; stderr?: string }) => {
        assert.fail(`unittest failed:\n${error.stderr ?? ''}${error.stdout ?? ''}`);
      });
      assert.match(result.stderr, /Ran [1-9]\d* tests?/);
      assert.match(result.stderr, /\nOK\n?$/);
    });

    /** The monthly qfq bars of `symbols` as plain GETs answer them: every bar, all fields. */
    async function monthlyBars(symbols: string[]): Promise<{ rows: number; close: number[]; symbols: string[] }> {
      const close: number[] = [];
      const withBars: string[] = [];
      for (const s of symbols) {
        const page = await plain<{ total: number; data: { close: number }[] }>(
          `/ashare/klines/${s}?period=month&adj=qfq&start=1990-01-01&limit=500`,
        );
        assert.equal(page.data.length, page.total);
        close.push(...page.data.map((r) => r.close));
        if (page.total > 0) withBars.push(s);
      }
      return { rows: close.length, close, symbols: withBars };
    }

    test("the README's examples give what their comments say: ten symbols' monthly OHLCV bars, a whole market's day", async () => {
      const frames = await framesOf('README.md');
      const ten = (await plain<{ data: { symbol: string }[] }>('/ashare/symbols?limit=10')).data.map((s) => s.symbol);
      assert.deepEqual(frames.bars.columns, [
        'symbol',
        'date',
        'open',
        'high',
        'low',
        'close',
        'volume',
        'amount',
        'adj_factor',
      ]);
      const expected = await monthlyBars(ten);
      assert.ok(expected.symbols.length >= 5);
      assert.deepEqual(frames.bars.symbols, expected.symbols, "the ten symbols' bars (those that have any), in order");
      assert.equal(frames.bars.rows, expected.rows, 'every monthly bar of each');
      assert.deepEqual(frames.bars.close, expected.close);
      const whole = await plain<{ total: number; data: { symbol: string }[] }>(
        '/ashare/klines?date=2025-03-14&limit=500',
      );
      assert.ok(whole.total > 0);
      assert.equal(frames.day.rows, whole.total, "every symbol's row of the day");
      assert.deepEqual(
        frames.day.symbols,
        whole.data.map((r) => r.symbol),
      );
    });

    test("every operation's Python code sample in the OpenAPI document runs against the server", async () => {
      const doc = buildOpenApi() as { paths: Record<string, { get?: { 'x-codeSamples'?: Sample[] } }> };
      const samples = Object.values(doc.paths).flatMap((p) =>
        (p.get?.['x-codeSamples'] ?? []).filter((c) => c.lang === 'Python'),
      );
      assert.ok(samples.length >= 14, `${samples.length} samples`);
      // As written, but for the server's address (the samples name the default one).
      const script = samples
        .map((c) => c.source.replaceAll('"http://127.0.0.1:8080"', 'os.environ["MDQ_URL"]'))
        .join('\n\n');
      await writeFile(join(home, 'samples.py'), script);
      await run(python, [join(home, 'samples.py')], { cwd: home, env }).catch((error: { stderr?: string }) =>
        assert.fail(`the samples failed:\n${error.stderr ?? ''}`),
      );
    });

    test("the client README's examples give what their comments say", async () => {
      const frames = await framesOf('clients/python/README.md');
      const ten = (await plain<{ data: { symbol: string }[] }>('/ashare/symbols?limit=10')).data.map((s) => s.symbol);
      assert.equal(frames.bars.rows, (await monthlyBars(ten)).rows);
      assert.ok(['open', 'high', 'low', 'close', 'volume', 'amount'].every((c) => frames.bars.columns.includes(c)));
      const cheap = await plain<{ total: number; data: { symbol: string }[] }>(
        '/ashare/screen?min_pe_ratio=0&max_pe_ratio=15&sort=pe_ratio&limit=500',
      );
      assert.ok(cheap.total > 0, 'the fixture has matches');
      assert.equal(frames.cheap.rows, cheap.total, 'every row the screen matches');
      assert.deepEqual(
        frames.cheap.symbols,
        cheap.data.map((r) => r.symbol),
      );
    });
  });
