// The dashboard in a real browser (playwright-core driving Debian's Chromium) against the real server process.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateDemoSnapshot } from '../../loaders/demo/index.js';
import { FIXTURE, fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../helpers/fixture-copy.js';
import { localSmtp } from '../helpers/local-smtp.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { CHROMIUM, chromiumUnavailable } from '../helpers/chromium.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Screenshots of every page: kept as test artifacts, git-ignored. */
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/dashboard/', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../../loaders/cli/admin.js', import.meta.url));
const PASSWORD = 'browser test password';
/** Run in the page (the tests compile without the DOM's types): the page's and the keys table's scroll and client widths. */
const PAGE_WIDTHS = '[document.documentElement.scrollWidth, document.documentElement.clientWidth]';
const FIT = `(() => {
  const doc = document.documentElement, table = document.getElementById('keys');
  return { page: [doc.scrollWidth, doc.clientWidth], table: [table.scrollWidth, table.clientWidth], right: table.getBoundingClientRect().right };
})()`;

type Playwright = typeof import('playwright-core');
type Browser = Awaited<ReturnType<Playwright['chromium']['launch']>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

const skip = await chromiumUnavailable();
// A visible skipped test carrying the reason (a skipped suite would count as no test at all);
// under CI (CI=true) a failure instead: a skipped browser test proves nothing there.
if (skip !== null) {
  if (process.env.CI === 'true')
    test('operator dashboard in Chromium', () => assert.fail(`${skip}; CI must run the browser test`));
  else test('operator dashboard in Chromium', { skip }, () => {});
} else
  describe('operator dashboard in Chromium', { timeout: 180_000 }, () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let server: ServerProcess;
    let browser: Browser;
    let page: Page;
    let base: string;
    let link: string;
    let B: string;
    let created: { id: string; key: string };
    /** 429 answers the free key got in `before` (its bucket holds 30). */
    let freeRefused = 0;
    const problems: string[] = [];

    const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    const show = async (hash: string, ready: string) => {
      await page.goto(`${base}/dashboard#${hash}`);
      await page.waitForSelector(ready);
    };

    before(async () => {
      await mkdir(ARTIFACTS, { recursive: true });
      dir = await tempDir('mdq-browser-');
      const A = await fixtureCopy(join(dir.path, 'A'));
      B = await fixtureCopy(join(dir.path, 'B'), [
        { file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 },
      ]);
      link = join(dir.path, 'current');
      await symlink(A, link);
      const state = join(dir.path, 'state');
      const set = spawnSync(process.execPath, [ADMIN_CLI, 'set-password', '--state', state], {
        input: `${PASSWORD}\n`,
        encoding: 'utf8',
      });
      assert.equal(set.status, 0, `admin set-password: ${set.stderr}`);
      server = await startServerProcess({ snapshot: link, state });
      base = `http://127.0.0.1:${server.port}`;
      // Some API traffic, so the usage chart and health figures have something to show.
      for (let i = 0; i < 12; i++)
        await fetch(`${base}/api/v1/ashare/klines/sh600001?limit=5`, { headers: { 'x-api-key': server.keys.pro! } });
      await fetch(`${base}/api/v1/markets`, { headers: { 'x-api-key': 'mdq_wrong' } });
      // More than a free key's bucket at once: some 429 rate_limited, counted per key on the usage page.
      const answers = await Promise.all(
        Array.from({ length: 34 }, () =>
          fetch(`${base}/api/v1/quota`, { headers: { 'x-api-key': server.keys.free! } }),
        ),
      );
      freeRefused = answers.filter((a) => a.status === 429).length;
      assert.ok(freeRefused >= 3, `the free key was refused (${freeRefused} times)`);
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
      page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    });

    after(async () => {
      await browser?.close();
      await server?.kill();
      await dir?.cleanup();
    });

    test('signs in with the operator password', async () => {
      await page.goto(`${base}/dashboard`);
      await page.waitForSelector('#sign-in-form');
      await page.fill('#password', 'not the password');
      await page.click('#sign-in-button');
      await page.locator('#sign-in-message', { hasText: 'Wrong password' }).waitFor();
      await shot('0-sign-in');
      await new Promise((r) => setTimeout(r, 1100)); // the one-second lockout after a wrong password
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in-button');
      await page.waitForSelector('#data-version');
      assert.equal(await page.textContent('#data-version'), server.version);
    });

    test('the data page shows every market and the version', async () => {
      await show('data', '#markets');
      const markets = await page.$$eval('#markets tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(markets, ['ashare', 'hkstock', 'usstock', 'crypto', 'indices', 'etfs']);
      await shot('1-data');
    });

    test("the data page's macro card shows the series count: the distinct keys of the fixture's macro.csv", async () => {
      await show('data', '#macro-series');
      const [header, ...lines] = (await readFile(join(FIXTURE, 'macro.csv'), 'utf8')).trim().split('\n');
      const at = header.split(',').indexOf('key');
      const series = new Set(lines.map((l) => l.split(',')[at])).size;
      assert.equal(await page.textContent('#macro-series'), String(series));
    });

    test('before any reload, "last reload" is the load at start, with its version and duration', async () => {
      await show('data', '#last-reload');
      assert.equal(await page.getAttribute('#last-reload', 'data-at-start'), 'true');
      const text = (await page.textContent('#last-reload'))!;
      assert.match(
        text,
        new RegExp(`at server start: loaded ${server.version.replace(/\./g, '\\.')} · took \\d+\\.\\d\\d s`),
      );
    });

    test('creates a key: shown once with a copy button, then listed', async () => {
      await show('keys', '#create-form');
      await page.selectOption('#new-plan', 'enterprise');
      await page.fill('#new-org', 'Browser Desk');
      await page.fill('#new-contact', 'desk@example.com');
      await page.click('#create-key');
      await page.waitForSelector('#new-key');
      const key = (await page.textContent('#new-key'))!;
      assert.match(key, /^mdq_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/);
      assert.ok(await page.isVisible('#copy-key'), 'a copy button');
      created = { id: key.split('_')[1], key };
      const row = page.locator(`#keys tr[data-key-id="${created.id}"]`);
      await row.waitFor();
      assert.match((await row.textContent())!, /enterprise.*enabled.*Browser Desk.*desk@example\.com/);
      assert.equal(
        (await fetch(`${base}/api/v1/quota`, { headers: { 'x-api-key': key } })).status,
        200,
        'the new key works',
      );
      await shot('2-keys-created');
    });

    test('disables the key: the row says so and the API refuses it', async () => {
      const row = page.locator(`#keys tr[data-key-id="${created.id}"]`);
      await row.locator('button[data-action="disable"]').click();
      await row.locator('[data-role="status"]', { hasText: 'disabled' }).waitFor();
      assert.equal((await fetch(`${base}/api/v1/quota`, { headers: { 'x-api-key': created.key } })).status, 401);
      await page.reload();
      await page.waitForSelector(`#keys tr[data-key-id="${created.id}"].disabled`);
      assert.ok(
        !(await page.content()).includes(created.key.split('_')[2]),
        'after a reload the secret is nowhere on the page',
      );
      await shot('3-keys-disabled');
    });

    test("changes a key's plan: the row shows it, the API applies it, today's usage is kept", async () => {
      await show('keys', '#keys');
      const id = server.keys.pro!.split('_')[1];
      const quota = async () =>
        (await (await fetch(`${base}/api/v1/quota`, { headers: { 'x-api-key': server.keys.pro! } })).json()) as {
          plan: string;
          used: number;
          requests_today: number;
        };
      const before = await quota();
      const row = page.locator(`#keys tr[data-key-id="${id}"]`);
      await row.locator('button[data-action="plan"]').click();
      await page.selectOption(`#plan-of-${id}`, 'enterprise');
      await page.click('#keys tr.row-form button[data-action="save-plan"]');
      await row.locator('[data-role="plan"]', { hasText: 'enterprise' }).waitFor();
      await page.locator('#keys-message', { hasText: /pro → enterprise.*kept/ }).waitFor();
      const after = await quota();
      assert.equal(after.plan, 'enterprise');
      assert.equal(after.used, before.used, 'rows kept');
      assert.equal(after.requests_today, before.requests_today + 1, 'requests kept (plus this call)');
      await shot('3b-keys-plan-changed');
    });

    test("the keys table shows each key's last use and its requests and rows of the last 7 days", async () => {
      await show('keys', '#keys');
      const free = page.locator(`#keys tr[data-key-id="${server.keys.free!.split('_')[1]}"]`);
      assert.equal(
        await free.locator('[data-role="history"] .spark-box').getAttribute('data-requests'),
        '0,0,0,0,0,0,34',
        "the free key's 34 requests of the start, all today",
      );
      assert.equal(
        await free.locator('[data-role="history"] .spark-box').getAttribute('data-rows'),
        '0,0,0,0,0,0,0',
        '/quota charges no rows',
      );
      assert.equal(await free.locator('[data-role="history"] svg.spark.req rect').count(), 7, 'one bar a day');
      const usedAt = Date.parse((await free.locator('[data-role="last-used"] time').getAttribute('datetime'))!);
      assert.ok(
        Date.now() - usedAt < 180_000 && Date.now() >= usedAt - 5_000,
        `last used ${new Date(usedAt).toISOString()}: during this test`,
      );
      const enterprise = page.locator(`#keys tr[data-key-id="${server.keys.enterprise!.split('_')[1]}"]`);
      assert.equal(await enterprise.locator('[data-role="last-used"]').textContent(), 'never');
      await shot('2b-keys-history');
    });

    test('the keys table fits a 420 px wide window: no sideways scrolling', async () => {
      await page.setViewportSize({ width: 420, height: 860 });
      try {
        await show('keys', '#keys');
        const fit = (await page.evaluate(FIT)) as { page: [number, number]; table: [number, number]; right: number };
        assert.ok(fit.page[0] <= fit.page[1], `page: scrollWidth ${fit.page[0]} > clientWidth ${fit.page[1]}`);
        assert.ok(
          fit.table[0] <= fit.table[1],
          `keys table: scrollWidth ${fit.table[0]} > clientWidth ${fit.table[1]}`,
        );
        assert.ok(fit.right <= 420, `the table ends at ${fit.right} px`);
        await page.evaluate('window.scrollTo(0, 0)'); // the sticky top bar at the top of the full-page shot
        await page.screenshot({ path: join(ARTIFACTS, 'keys-420px.png'), fullPage: true });
        for (const [hash, ready] of [
          ['data', '#markets'],
          ['usage', '#usage'],
          ['health', '#p99'],
        ] as const) {
          await show(hash, ready);
          const [scroll, client] = (await page.evaluate(PAGE_WIDTHS)) as [number, number];
          assert.ok(scroll <= client, `${hash} page at 420 px: scrollWidth ${scroll} > clientWidth ${client}`);
        }
      } finally {
        await page.setViewportSize({ width: 1280, height: 860 });
      }
    });

    test('without SMTP_URL the Mail buttons are disabled, each with a title saying why', async () => {
      await show('keys', '#keys');
      const buttons = page.locator('#keys button[data-action="mail"]');
      assert.ok((await buttons.count()) >= 5);
      for (const button of await buttons.all()) {
        assert.ok(await button.isDisabled(), 'disabled');
        assert.match((await button.getAttribute('title'))!, /SMTP_URL is not set/);
      }
      assert.ok(await page.isVisible('#mail-notice'));
    });

    test("with SMTP_URL the Mail buttons are enabled, and one mails the key's details", async (t) => {
      const smtp = await localSmtp();
      t.after(() => smtp.close());
      const state = join(dir.path, 'state-mail');
      const set = spawnSync(process.execPath, [ADMIN_CLI, 'set-password', '--state', state], {
        input: `${PASSWORD}\n`,
        encoding: 'utf8',
      });
      assert.equal(set.status, 0, `admin set-password: ${set.stderr}`);
      const mailing = await startServerProcess({ snapshot: link, state, env: { SMTP_URL: smtp.url } });
      t.after(() => mailing.kill());
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } }); // its own cookie jar: cookies ignore the port
      t.after(() => context.close());
      const other = await context.newPage();
      await other.goto(`http://127.0.0.1:${mailing.port}/dashboard#keys`);
      await other.fill('#password', PASSWORD);
      await other.click('#sign-in-button');
      await other.waitForSelector('#keys');
      const buttons = other.locator('#keys button[data-action="mail"]');
      assert.ok((await buttons.count()) >= 4);
      for (const button of await buttons.all()) assert.ok(await button.isEnabled(), 'enabled');
      assert.equal(await other.$('#mail-notice'), null, 'no notice');
      await other.fill('#new-org', 'Mail Desk');
      await other.fill('#new-contact', 'mail-desk@example.com');
      await other.click('#create-key');
      const id = (await other.textContent('#new-key'))!.split('_')[1];
      await other.locator(`#keys tr[data-key-id="${id}"] button[data-action="mail"]`).click();
      await other.locator('#keys-message', { hasText: `Mailed the details of ${id}` }).waitFor();
      assert.deepEqual(
        smtp.received.map((m) => m.to),
        [['mail-desk@example.com']],
      );
    });

    test('reloads the snapshot and shows the new data version', async () => {
      await show('data', '#reload-button');
      const before = await page.textContent('#data-version');
      await repoint(link, B);
      await page.click('#reload-button');
      await page.locator('#reload-result', { hasText: /^Loaded/ }).waitFor({ timeout: 30_000 });
      const after = await page.textContent('#data-version');
      assert.notEqual(after, before);
      assert.match(
        (await page.textContent('#reload-result'))!,
        new RegExp(`now serving ${after!.replace(/\./g, '\\.')}`),
      );
      assert.match((await page.textContent('#last-reload'))!, /loaded .* took \d+\.\d\d s/);
      assert.match(
        (await page.textContent('#reload-result'))!,
        /read \d+\.\d\d s · store \d+\.\d\d s · open \d+\.\d\d s · publish \d+\.\d\d s/,
        'the time of each stage',
      );
      assert.equal(await page.getAttribute('#last-reload', 'data-at-start'), null, 'no longer the load at start');
      assert.equal((await fetch(`${base}/healthz`)).headers.get('x-data-version'), after, 'the server serves it');
      await shot('4-data-reloaded');
    });

    test('a reload of a bigger folder shows its stage and rows while it runs', async () => {
      const big = join(dir.path, 'big');
      await generateDemoSnapshot(big, { symbolScale: 0.1, years: 5, progress: false });
      await show('data', '#reload-button');
      await repoint(link, big);
      await page.click('#reload-button');
      await page
        .waitForSelector('#reload-progress[data-stage="read"]', { timeout: 30_000 })
        .catch(async (error: Error) => {
          throw new Error(
            `${error.message}; the page says: ${await page.textContent('#reload-result').catch(() => '?')} / ${await page.textContent('#last-reload').catch(() => '?')}`,
          );
        });
      assert.match((await page.textContent('#reload-stage'))!, /^Stage 1 of 4: reading/);
      // Rows arrive once the first pass over the files (counting) is done; then the figure climbs.
      await page
        .locator('#reload-detail', { hasText: /^[1-9][\d,]* of about [\d,]+ K-line rows read \(\d+ %\)/ })
        .waitFor();
      assert.ok(await page.isVisible('#reload-bar'), 'a progress bar');
      await shot('4b-reload-progress');
      await page.locator('#reload-result', { hasText: /^Loaded/ }).waitFor({ timeout: 60_000 });
      assert.equal(await page.$('#reload-progress'), null, 'the progress is gone once the pass is over');
    });

    test('the usage page draws requests per minute with uPlot and lists keys', async () => {
      await show('usage', '#usage');
      await page.waitForSelector('#chart .uplot canvas');
      const rows = await page.$$eval('#usage tbody tr', (trs) => trs.length);
      assert.ok(rows >= 5);
      await shot('5-usage');
    });

    test('the usage page counts 429s per key and requests by route', async () => {
      await show('usage', '#usage');
      const free = server.keys.free!.split('_')[1];
      assert.equal(
        await page.textContent(`#usage tr[data-key-id="${free}"] [data-role="refused"]`),
        String(freeRefused),
      );
      assert.equal(
        await page.textContent(`#usage tr[data-key-id="${server.keys.internal!.split('_')[1]}"] [data-role="refused"]`),
        '0',
      );
      const klines = page.locator('#routes tr[data-route="/api/v1/:market/klines/:symbol"] [data-role="requests"]');
      assert.ok(Number((await klines.textContent())!.replace(/,/g, '')) >= 12, 'the K-line requests made at the start');
      assert.ok(await page.isVisible('#routes tr[data-route="/api/v1/quota"]'));
    });

    test('the chart starts at the server start, not an hour before it', async () => {
      const first = await page.evaluate(
        async () =>
          (await (await fetch('/admin/api/usage')).json()) as { per_minute: { t: number }[]; started: string },
      );
      assert.equal(first.per_minute[0].t, Math.floor(Date.parse(first.started) / 60_000) * 60);
      assert.ok(first.per_minute.length <= 60);
    });

    test('the health page shows uptime, requests a second and latency percentiles', async () => {
      await show('health', '#p99');
      assert.match((await page.textContent('#p50'))!, /µs|ms/);
      await shot('6-health');
    });

    test('no script error and no Content-Security-Policy violation on any page', () => {
      assert.deepEqual(
        problems.filter((p) => !/status of 401|status of 503/.test(p)),
        [],
      );
    });
  });
