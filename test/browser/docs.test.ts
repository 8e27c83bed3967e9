// The API reference page (/docs) in a real browser (playwright-core driving Debian's Chromium):
// it renders every operation of the served document, offline, and the screenshot is not blank.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import type { TestServer } from '../helpers/api-server.js';
import { startAnswerServer } from '../helpers/e2e.js';
import { CHROMIUM, chromiumUnavailable } from '../helpers/chromium.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'];
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/docs/', import.meta.url));

type Playwright = typeof import('playwright-core');
type Browser = Awaited<ReturnType<Playwright['chromium']['launch']>>;

/** The decompressed scanlines of a PNG (its IDAT chunks inflated): what "not blank" is judged on. */
function pngPixels(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(parts));
}

const skip = await chromiumUnavailable();
if (skip !== null) {
  if (process.env.CI === 'true')
    test('API reference in Chromium', () => assert.fail(`${skip}; CI must run the browser test`));
  else test('API reference in Chromium', { skip }, () => {});
} else
  describe('API reference in Chromium', { timeout: 120_000 }, () => {
    let server: TestServer;
    let browser: Browser;

    before(async () => {
      await mkdir(ARTIFACTS, { recursive: true });
      server = await startAnswerServer();
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test('GET /docs renders every operation of /api/v1/openapi.json, fetching nothing from elsewhere', async () => {
      const base = `http://127.0.0.1:${server.port}`;
      const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, object> };
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const elsewhere: string[] = [];
      const errors: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      page.on('pageerror', (e) => errors.push(e.message));
      const res = await page.goto(`${base}/docs`);
      assert.equal(res?.status(), 200);
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      const shown = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
      const expected = Object.keys(doc.paths);
      assert.deepEqual([...new Set(shown)].sort(), [...expected].sort(), 'every path of the document, and no other');
      const title = await page.textContent('.info .title');
      assert.match(title ?? '', /Market data query service/);
      // The push over WebSocket is linked from the page: its AsyncAPI document, served without a key.
      const asyncapi = await page.$$eval('.info a', (links) =>
        links.map((a) => a.getAttribute('href')).filter((href) => href === '/api/v1/asyncapi.json'),
      );
      assert.deepEqual(asyncapi, ['/api/v1/asyncapi.json'], 'the page links the AsyncAPI document');
      const linked = await fetch(`${base}/api/v1/asyncapi.json`);
      assert.equal(linked.status, 200);
      assert.equal(((await linked.json()) as { asyncapi: string }).asyncapi, '3.0.0');
      assert.deepEqual(elsewhere, [], 'nothing fetched from another host (no CDN, no validator)');
      assert.deepEqual(errors, [], 'no script error');
      const png = await page.screenshot({ fullPage: true });
      await writeFile(join(ARTIFACTS, 'docs.png'), png);
      const pixels = pngPixels(png);
      const distinct = new Set(pixels.subarray(0, 1_000_000)).size;
      assert.ok(distinct > 16, `the screenshot is not blank (${distinct} distinct byte values)`);
      await page.close();
    });

    test('an opened operation shows its code samples (curl, Python, TypeScript); the cross-section and the export have a Bulk data section', async () => {
      const base = `http://127.0.0.1:${server.port}`;
      const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
        paths: Record<string, { get: { operationId: string; 'x-codeSamples': { label: string; source: string }[] } }>;
      };
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${base}/docs`);
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      const bulk = page.locator('.opblock-tag-section', { has: page.locator('h3[data-tag="Bulk data"]') });
      const bulkPaths = await bulk
        .locator('.opblock-summary-path')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
      assert.deepEqual(
        bulkPaths.sort(),
        ['/{market}/export', '/{market}/klines'],
        'Bulk data lists the cross-section and the export',
      );
      await bulk.locator('.opblock-summary-path[data-path="/{market}/klines"]').click();
      await page.waitForSelector('.code-sample', { timeout: 30_000 });
      const samples = await page.$$eval('.code-sample', (els) =>
        els.map((e) => ({
          label: e.querySelector('h5')?.textContent ?? '',
          source: e.querySelector('code')?.textContent ?? '',
        })),
      );
      const expected = doc.paths['/{market}/klines'].get['x-codeSamples'];
      assert.deepEqual(
        samples.map((x) => x.label),
        expected.map((x) => x.label),
      );
      assert.deepEqual(
        samples.map((x) => x.source),
        expected.map((x) => x.source),
        'each sample as the document writes it',
      );
      assert.ok(
        samples.some((x) => x.source.includes('cross_section(')),
        'the whole-day sample shows',
      );
      const png = await page.screenshot({ fullPage: false });
      await writeFile(join(ARTIFACTS, 'docs-samples.png'), png);
      assert.deepEqual(errors, [], 'no script error');
      await page.close();
    });
  });
