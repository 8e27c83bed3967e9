// `node scripts/bundle.js`: bundles the compiled server (dist/main.js and every module it loads) into dist/main.bundle.js, the file `npm start` runs.
//
// Plain JavaScript, the build's last step (scripts/run.js, after tsc). One file loads in a third
// less time than the two hundred modules it holds (Node's ESM loader links each one). What the
// bundle changes is only how the code is loaded:
// - `import.meta.url` of each module is its own compiled file's URL, so every path made from it
//   (worker and child-process entries, assets, the compiled serialisers) is the path it was;
// - a package is required where its importer ran, not hoisted before the bundle's first line
//   (ioredis only with REDIS_URL, prom-client at the first scrape, none before the settings are
//   checked): its CommonJS build, which the dual packages ship beside their ES modules (lmdb,
//   msgpackr: one file each, where their ES modules are a dozen for Node's loader to link; the
//   start was ~0.04 s slower with them); a package with no CommonJS build would be imported;
// - the serving threads, the pool's workers and the child processes run the modules as compiled.

import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/** The compiled entry and the bundle beside it: its relative paths are the entry's. */
export const ENTRY = join(DIST, 'main.js');
export const BUNDLE = join(DIST, 'main.bundle.js');

const BUILTIN = new Set(builtinModules);
const isPackage = (specifier) =>
  !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:') && !BUILTIN.has(specifier);

/** Each compiled module's `import.meta.url` as its own file's URL, made from the bundle's (so the folder may move). */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(`${DIST}/`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const other = /\bimport\.meta\.(?!url\b)\w+/.exec(text);
      if (other !== null)
        throw new Error(`${relative(ROOT, args.path)} reads ${other[0]}: the bundle gives only import.meta.url`);
      const url = `new URL(${JSON.stringify(`./${relative(dirname(BUNDLE), args.path)}`)}, import.meta.url).href`;
      return { contents: text.replace(/\bimport\.meta\.url\b/g, url), loader: 'js' };
    });
  },
};

/** The module format Node gives `file`: .cjs and .mjs by name, .js by its package's "type". */
function formatOf(file) {
  if (file.endsWith('.cjs')) return 'commonjs';
  if (file.endsWith('.mjs')) return 'module';
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module' ? 'module' : 'commonjs';
  }
  return 'commonjs';
}

/** Packages stay in node_modules: each required where it was imported (as require() finds it), imported if it cannot be. */
const packagesWhereUsed = {
  name: 'packages-where-used',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (!isPackage(args.path) || args.pluginData === 'resolving') return undefined; // esbuild's own resolution
      if (args.kind === 'require-call') return { path: args.path, external: true };
      const found = await build.resolve(args.path, {
        kind: 'require-call',
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (found.errors.length > 0 || formatOf(found.path) === 'module') return { path: args.path, external: true };
      return { path: args.path, namespace: 'required-package' };
    });
    build.onLoad({ filter: /.*/, namespace: 'required-package' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: DIST,
    }));
  },
};

/** Writes the bundle (and its source map, which leads back to the TypeScript through tsc's). */
export async function bundle() {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [ENTRY],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // The packages' `require`: resolved from dist/, as from the modules that imported them.
    banner: {
      js: "import { createRequire as createBundleRequire } from 'node:module';\nconst require = createBundleRequire(import.meta.url);",
    },
    plugins: [ownUrls, packagesWhereUsed],
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
