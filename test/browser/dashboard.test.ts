// The dashboard in a real browser (playwright-core driving Debian's Chromium) against the real server process.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../helpers/fixture-copy.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Screenshots of every page: kept as test artifacts, git-ignored. */
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/dashboard/', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../../loaders/cli/admin.js', import.meta.url));
const PASSWORD = 'browser test password';

type Playwright = typeof import('playwright-core');
type Browser = Awaited<ReturnType<Playwright['chromium']['launch']>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

/** Why the browser test cannot run here, or null when it can. Never a silent pass: the skip names the reason. */
async function unavailable(): Promise<string | null> {
  if (!existsSync(CHROMIUM)) return `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; .ci/run does it)`;
  try {
    await import('playwright-core');
  } catch (error) {
    return `playwright-core cannot be loaded: ${(error as Error).message}`;
  }
  return null;
}
const skip = await unavailable();
// A visible skipped test carrying the reason (a skipped suite would count as no test at all);
// under CI (CI=true) a failure instead: a skipped browser test proves nothing there.
if (skip !== null) {
  if (process.env.CI === 'true') test('operator dashboard in Chromium', () => assert.fail(`${skip}; CI must run the browser test`));
  else test('operator dashboard in Chromium', { skip }, () => {});
}
else describe('operator dashboard in Chromium', { timeout: 180_000 }, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let base: string;
  let link: string;
  let B: string;
  let created: { id: string; key: string };
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
    B = await fixtureCopy(join(dir.path, 'B'), [{ file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 }]);
    link = join(dir.path, 'current');
    await symlink(A, link);
    const state = join(dir.path, 'state');
    const set = spawnSync(process.execPath, [ADMIN_CLI, 'set-password', '--state', state], { input: `${PASSWORD}\n`, encoding: 'utf8' });
    assert.equal(set.status, 0, `admin set-password: ${set.stderr}`);
    server = await startServerProcess({ snapshot: link, state });
    base = `http://127.0.0.1:${server.port}`;
    // Some API traffic, so the usage chart and health figures have something to show.
    for (let i = 0; i < 12; i++) await fetch(`${base}/api/v1/ashare/klines/sh600001?limit=5`, { headers: { 'x-api-key': server.keys.pro! } });
    await fetch(`${base}/api/v1/markets`, { headers: { 'x-api-key': 'mdq_wrong' } });
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
    assert.equal((await fetch(`${base}/api/v1/quota`, { headers: { 'x-api-key': key } })).status, 200, 'the new key works');
    await shot('2-keys-created');
  });

  test('disables the key: the row says so and the API refuses it', async () => {
    const row = page.locator(`#keys tr[data-key-id="${created.id}"]`);
    await row.locator('button[data-action="disable"]').click();
    await row.locator('[data-role="status"]', { hasText: 'disabled' }).waitFor();
    assert.equal((await fetch(`${base}/api/v1/quota`, { headers: { 'x-api-key': created.key } })).status, 401);
    await page.reload();
    await page.waitForSelector(`#keys tr[data-key-id="${created.id}"].disabled`);
    assert.ok(!(await page.content()).includes(created.key.split('_')[2]), 'after a reload the secret is nowhere on the page');
    await shot('3-keys-disabled');
  });

  test('mail without SMTP_URL: the page says mail is not configured', async () => {
    await page.locator(`#keys tr[data-key-id="${created.id}"] button[data-action="mail"]`).click();
    await page.locator('#keys-message', { hasText: 'not configured' }).waitFor();
    assert.ok(await page.isVisible('#mail-notice'));
  });

  test('reloads the snapshot and shows the new data version', async () => {
    await show('data', '#reload-button');
    const before = await page.textContent('#data-version');
    await repoint(link, B);
    await page.click('#reload-button');
    await page.locator('#reload-result', { hasText: /^Loaded/ }).waitFor({ timeout: 30_000 });
    const after = await page.textContent('#data-version');
    assert.notEqual(after, before);
    assert.match((await page.textContent('#reload-result'))!, new RegExp(`now serving ${after!.replace(/\./g, '\\.')}`));
    assert.match((await page.textContent('#last-reload'))!, /loaded .* took \d+\.\d\d s/);
    assert.equal((await fetch(`${base}/healthz`)).headers.get('x-data-version'), after, 'the server serves it');
    await shot('4-data-reloaded');
  });

  test('the usage page draws requests per minute with uPlot and lists keys', async () => {
    await show('usage', '#usage');
    await page.waitForSelector('#chart .uplot canvas');
    const rows = await page.$$eval('#usage tbody tr', (trs) => trs.length);
    assert.ok(rows >= 5);
    await shot('5-usage');
  });

  test('the health page shows uptime, requests a second and latency percentiles', async () => {
    await show('health', '#p99');
    assert.match((await page.textContent('#p50'))!, /µs|ms/);
    await shot('6-health');
  });

  test('no script error and no Content-Security-Policy violation on any page', () => {
    assert.deepEqual(problems.filter((p) => !/status of 401|status of 503/.test(p)), []);
  });
});
