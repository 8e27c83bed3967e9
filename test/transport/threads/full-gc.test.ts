// The collection a released edition gets: the native memory freed by it goes back to the system (RssAnon falls).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const FULL_GC = new URL('../../../transport/threads/full-gc.js', import.meta.url).href;
const NATIVE_HEAP = new URL('../../../transport/threads/native-heap.js', import.meta.url).href;

/**
 * In a fresh process: native memory held in glibc's arenas the way a served edition's copies and
 * answers hold it (a 4 MiB block freed first raises glibc's thresholds, then 60 one-MiB buffers
 * with the last kept, so the freed ones sit below it), dropped, then `fullGc(options)` asked once.
 * RssAnon (MiB) before the drop, and 2.5 s after the collection.
 */
function heldThenCollected(options: string): { before: number; after: number } {
  const script = `
    import { readFileSync } from 'node:fs';
    import { fullGc } from ${JSON.stringify(FULL_GC)};
    const anon = () => Number(/RssAnon:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    let big = Buffer.allocUnsafeSlow(4 << 20).fill(1);
    big = null;
    const collect = fullGc(${options});
    collect();
    await new Promise((r) => setTimeout(r, 2500));
    let held = Array.from({ length: 60 }, () => Buffer.allocUnsafeSlow(1 << 20).fill(2));
    const kept = held.at(-1);
    const before = anon();
    held = null;
    collect();
    await new Promise((r) => setTimeout(r, 2500));
    console.log(JSON.stringify({ before, after: anon(), kept: kept.length }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { before: number; after: number };
}

test('a collection returns the native memory it freed to the system (glibc)', async () => {
  const { trimNativeHeap } = await import(NATIVE_HEAP);
  assert.equal(await trimNativeHeap(), true, 'malloc_trim is found on this glibc machine');
  const { before, after } = heldThenCollected('{}');
  assert.ok(
    before - after >= 40,
    `RssAnon fell by ${(before - after).toFixed(1)} MiB (from ${before.toFixed(1)}), not ≥ 40`,
  );
});

test('without returning memory the same freed buffers stay resident (what the trim is for)', () => {
  const { before, after } = heldThenCollected('{ returnMemory: false }');
  assert.ok(before - after < 20, `RssAnon fell by ${(before - after).toFixed(1)} MiB without the trim`);
});
