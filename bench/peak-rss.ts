// Preloaded (`node --import`) into a process the bench measures: at exit, writes the process's
// peak resident memory (every thread's, in bytes) to the file MDQ_PEAK_RSS_FILE names.

import { writeFileSync } from 'node:fs';

const file = process.env.MDQ_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
