// `npm run gen-demo`: writes the built-in demo snapshot (flags: --out, --seed, --scale, --years).

import { parseArgs } from 'node:util';
import { DEFAULT_SEED, generateDemoSnapshot } from './index.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'snapshots/demo' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
    scale: { type: 'string', default: '1' },
    years: { type: 'string', default: '10' },
  },
  strict: true,
});

const number = (name: string, text: string): number => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`--${name} must be a number, got '${text}'`);
  return n;
};

try {
  const result = await generateDemoSnapshot(values.out, {
    seed: number('seed', values.seed), symbolScale: number('scale', values.scale), years: number('years', values.years), progress: true,
  });
  console.log(`wrote ${values.out}: ${result.rows} K-line rows, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s`);
} catch (err) {
  console.error(`gen-demo: ${(err as Error).message}`);
  process.exitCode = 1;
}
