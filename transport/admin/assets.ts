// The dashboard's files, read once at start-up into memory from a fixed list: a URL only ever picks a name from it.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/** Source files of the page (transport/admin/assets/, beside this module's source). */
const OWN = new URL('../../../transport/admin/assets/', import.meta.url);
const require = createRequire(import.meta.url);

/** URL name under /dashboard/ → where the bytes come from. Nothing outside this list is served. */
const FILES: Record<string, { type: string; path: () => string }> = {
  'app.js': { type: 'text/javascript; charset=utf-8', path: () => fileURLToPath(new URL('app.js', OWN)) },
  'sign-in.js': { type: 'text/javascript; charset=utf-8', path: () => fileURLToPath(new URL('sign-in.js', OWN)) },
  'dashboard.css': { type: 'text/css; charset=utf-8', path: () => fileURLToPath(new URL('dashboard.css', OWN)) },
  'uplot.js': { type: 'text/javascript; charset=utf-8', path: () => require.resolve('uplot/dist/uPlot.iife.min.js') },
  'uplot.css': { type: 'text/css; charset=utf-8', path: () => require.resolve('uplot/dist/uPlot.min.css') },
};

/** The two page shells: the dashboard (signed in) and the sign-in form. */
const PAGES = { dashboard: 'dashboard.html', signIn: 'sign-in.html' } as const;

export interface DashboardAssets {
  /** By the name after `/dashboard/`; a Map lookup, never a path. */
  files: ReadonlyMap<string, Asset>;
  dashboard: Asset;
  signIn: Asset;
}

const HTML = 'text/html; charset=utf-8';

/** Reads every listed file now (start-up); a missing one fails the start, not a request. */
export function loadAssets(): DashboardAssets {
  const files = new Map<string, Asset>();
  for (const [name, { type, path }] of Object.entries(FILES)) files.set(name, { type, body: readFileSync(path()) });
  const page = (name: string): Asset => ({ type: HTML, body: readFileSync(fileURLToPath(new URL(name, OWN))) });
  return { files, dashboard: page(PAGES.dashboard), signIn: page(PAGES.signIn) };
}

/** The Content-Security-Policy of the pages: own scripts and styles only, no inline code, no framing. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
