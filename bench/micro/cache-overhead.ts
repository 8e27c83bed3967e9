// What a kept answer really holds against what the response cache counts: the measurement behind
// ENTRY_OVERHEAD_BYTES and BUFFER_OVERHEAD_BYTES. `node --expose-gc dist/bench/micro/cache-overhead.js [entries]`
// (each body size in a process of its own: memory freed by one fill would be reused by the next).

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ResponseCache } from '../../transport/caches/response-cache.js';
import { etagOf } from '../../transport/http/conditional.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const _MB = 1024 * 1024;
const entries = Number(process.argv[2] ?? 20_000);
const SIZES = [300, 2_000, 20_000];

/** Heap used + external (ArrayBuffer backing stores) + resident memory, after a full collection. */
function memory(): { js: number; rss: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { js: m.heapUsed + m.external, rss: m.rss };
}

/** A JSON-looking body of `n` bytes that compresses like an answer (about 5:1). */
function body(n: number, seed: number): Buffer {
  const words = randomBytes(64).toString('hex');
  let text = `{"seed":${seed},"data":[`;
  while (text.length < n)
    text += `{"close":${(seed % 97) + text.length / 7},"tag":"${words.slice(text.length % 48, (text.length % 48) + 16)}"},`;
  return Buffer.from(text.slice(0, n));
}

/**
 * Fills a cache with `entries` answers of `size` bytes, each as the server leaves it after
 * one request in every encoding: its gzip and br bodies, three ETags and three header blocks.
 */
function fill(size: number): { counted: number; js: number; rss: number } {
  const cache = new ResponseCache({ budgetBytes: 2 ** 40, maxBodyBytes: 2 ** 30 });
  const bodies = Array.from({ length: 64 }, (_, i) => body(size, i));
  const before = memory();
  for (let i = 0; i < entries; i++) {
    const key = `json /api/v1/:market/klines/:symbol internal ashare/sh${600000 + i}?limit=100&fields=close,volume&adj=qfq`;
    const answer = {
      rows: 100,
      type: 'application/json; charset=utf-8',
      link: `</api/v1/ashare/klines/sh${600000 + i}?limit=100&offset=100>; rel="next"`,
      body: bodies[i % 64],
      format: 'json' as const,
      tag: `demo.0123456789ab\n${key.slice(5)}\njson`,
    };
    cache.offer(key, answer);
    const kept = cache.offer(key, answer)!;
    for (const [slot, encoding] of [
      [0, 'identity'],
      [1, 'gzip'],
      [2, 'br'],
    ] as const) {
      cache.encoded(kept, encoding);
      const etag = (kept.etags[slot] = etagOf(kept.tag!, encoding));
      cache.keepHead(kept, slot, {
        name: 'content-type',
        value: `application/json; charset=utf-8\r\nx-data-version: demo.0123456789ab\r\netag: ${etag}\r\ncache-control: private, no-cache\r\nvary: Origin, Accept, Accept-Encoding\r\nlink: ${kept.link}${slot === 0 ? '' : `\r\ncontent-encoding: ${encoding}`}`,
      });
    }
  }
  const after = memory();
  const counted = cache.stats.bytes;
  if (cache.stats.entries !== entries) throw new Error('every entry should be kept');
  return { counted, js: after.js - before.js, rss: after.rss - before.rss };
}

const per = (n: number): string => Math.round(n / entries).toLocaleString('en-US');
if (process.argv[3] !== undefined) {
  const size = Number(process.argv[3]);
  const r = fill(size);
  console.log(
    `| ${size.toLocaleString('en-US')} B | ${per(r.counted)} | ${per(r.js)} | ${per(r.rss)} | ${(r.rss / r.counted).toFixed(2)} |`,
  );
} else {
  console.log(
    `${entries.toLocaleString('en-US')} kept answers, each with gzip and br bodies, 3 ETags and 3 header blocks; bytes per entry (Node ${process.version})`,
  );
  console.log('| body | counted | heap + external | resident | resident / counted |');
  console.log('|---|---|---|---|---|');
  const self = fileURLToPath(import.meta.url);
  for (const size of SIZES)
    process.stdout.write(
      execFileSync(process.execPath, ['--expose-gc', self, String(entries), String(size)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
}
