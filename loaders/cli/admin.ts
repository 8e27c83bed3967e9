// The admin command: `set-password` stores the dashboard operator's password (scrypt hash) in STATE_DIR.

import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { SettingError } from '../config/read-settings.js';
import { exitOnError, startProgram } from '../config/run-program.js';
import { ADMIN } from '../config/settings.js';
import { MIN_PASSWORD_LENGTH } from '../state/operator-password.js';
import { OperatorStore } from '../state/operator-store.js';

/** The operator's input is refused (exit 2, one line). */
class CliError extends SettingError {}

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

async function run(): Promise<void> {
  const { values, positionals } = startProgram(ADMIN);
  if (positionals[0] !== 'set-password')
    throw new CliError(`unknown command '${positionals[0]}'; usage: ${ADMIN.usage}`);
  const password = await readPassword();
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new CliError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters; nothing changed`);
  if (/[\x00-\x1f\x7f]/.test(password))
    throw new CliError('the password must not contain control characters; nothing changed');
  const store = OperatorStore.open(values.state);
  try {
    await store.setPassword(password);
  } finally {
    await store.close();
  }
  process.stdout.write('operator password set (stored as a salted scrypt hash); open dashboard sessions end\n');
}

run().catch((error: unknown) => exitOnError(ADMIN, error));
