// Build step (after tsc): every response schema's serialiser written as fast-json-stringify's
// standalone code into COMPILED_DIR, so a start loads them without the compiler (compile-json.ts).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { SCHEMAS } from '../schemas/responses.js';
import { COMPILED_DIR, compiledName, standaloneCode } from '../serialise/compile-json.js';

rmSync(COMPILED_DIR, { recursive: true, force: true }); // none of a schema that changed stays behind
mkdirSync(COMPILED_DIR, { recursive: true });
for (const schema of Object.values(SCHEMAS)) writeFileSync(COMPILED_DIR + compiledName(schema), standaloneCode(schema));
