// Test child: serves known usage through guard + state sync and reports its counts on stdout.
// argv: <stateDir> <requests a second>. Prints `ready <day> <id>`, then `count <n> <epoch ms>`
// after every request; on SIGTERM closes cleanly and prints `final <n>`.

import { ensureFirstKeys } from '../../loaders/state/first-keys.js';
import { StateStore } from '../../loaders/state/state-store.js';
import { StateSync } from '../../loaders/state/state-sync.js';
import { Guard } from '../../transport/guard/guard.js';

/** Runs the child; without arguments (as `node --test dist/test/` runs every file under test/) it does nothing. */
async function main(dir: string, perSecond: number): Promise<void> {
  const store = StateStore.open(dir);
  const issued = await ensureFirstKeys(store.keys);
  const internal = issued.find((k) => k.record.plan === 'internal')!;
  const guard = new Guard();
  const sync = StateSync.start(store, guard);
  const key = guard.authenticate(internal.key)!;

  // stdout to a pipe is synchronous on Linux: a line written is the parent's even if we die next.
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`ready ${guard.dayLabel(Date.now())} ${key.id}`);

  let n = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    guard.admit(key, now, true);
    guard.charge(key, 1, now);
    n++;
    say(`count ${n} ${now}`);
  }, 1000 / perSecond);

  process.once('SIGTERM', async () => {
    clearInterval(timer);
    await sync.close();
    await store.close();
    say(`final ${n}`);
  });
}

const [dir, perSecond = '200'] = process.argv.slice(2);
if (dir !== undefined) await main(dir, Number(perSecond));
