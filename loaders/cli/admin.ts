// The admin command: `set-password` stores the dashboard operator's password (scrypt hash) in STATE_DIR.

import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '../state/operator-password.js';
import { OperatorStore } from '../state/operator-store.js';
import { resolveStateDir } from '../state/state-store.js';

const USAGE = `usage: admin set-password [--state DIR]
  Reads the new operator password from standard input (its first line), or prompts twice
  on a terminal. At least ${MIN_PASSWORD_LENGTH} characters. Open dashboard sessions end.`;

class CliError extends Error {}

/** All of a piped stdin; the password is its first line. */
async function fromPipe(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/, 1)[0];
}

/** Prompts without echo (the terminal shows nothing of what is typed). */
function prompt(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return fromPipe();
  const first = await prompt('New operator password: ');
  const again = await prompt('Repeat it: ');
  if (first !== again) throw new CliError('the two entries differ; nothing changed');
  return first;
}

async function run(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { state: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return void process.stdout.write(USAGE + '\n');
  if (positionals.length !== 1 || positionals[0] !== 'set-password') throw new CliError(`expected the command set-password\n${USAGE}`);
  const password = await readPassword();
  if (password.length < MIN_PASSWORD_LENGTH) throw new CliError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters; nothing changed`);
  if (/[\x00-\x1f\x7f]/.test(password)) throw new CliError('the password must not contain control characters; nothing changed');
  const store = OperatorStore.open(resolveStateDir(values.state));
  try {
    await store.setPassword(password);
  } finally {
    await store.close();
  }
  process.stdout.write('operator password set (stored as a salted scrypt hash); open dashboard sessions end\n');
}

run(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof CliError ? 2 : 1;
});
