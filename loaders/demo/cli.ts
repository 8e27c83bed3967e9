// `npm run gen-demo`: writes the built-in demo snapshot (--help lists the flags: out, seed, scale, years).

import { exitOnError, startProgram } from '../config/run-program.js';
import { GEN_DEMO } from '../config/settings.js';
import { generateDemoSnapshot } from './index.js';

const { values } = startProgram(GEN_DEMO);
try {
  const result = await generateDemoSnapshot(values.out, {
    seed: values.seed,
    symbolScale: values.scale,
    years: values.years,
    progress: true,
  });
  console.log(
    `wrote ${values.out}: ${result.rows} K-line rows, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s`,
  );
} catch (error) {
  exitOnError(GEN_DEMO, error);
}
