// The keys command: create, list, disable, enable and rotate API keys in STATE_DIR's key store.

import { parseArgs } from 'node:util';
import { isPlanName, PLAN_NAMES } from '../../engine/plans.js';
import type { KeyRecord } from '../state/key-store.js';
import { resolveStateDir, StateStore } from '../state/state-store.js';

const USAGE = `usage: keys <command> [--state DIR]
  create --plan ${PLAN_NAMES.join('|')} [--org NAME]   prints the new key on the last line
  list                                             id, plan, enabled|disabled, org, created
  disable <id> | enable <id>
  rotate <id>                                      prints the new key; the old one stops working`;

/** A mistake of the operator: one line on stderr and exit code 2 (1 for an unknown id). */
class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

function listLine(r: KeyRecord): string {
  return [r.id, r.plan, r.disabled ? 'disabled' : 'enabled', r.org, r.created].join('\t');
}

async function run(argv: string[], out: (line: string) => void): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { plan: { type: 'string' }, org: { type: 'string' }, state: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return out(USAGE);
  const [command, ...rest] = positionals;
  const want = command === 'create' || command === 'list' ? 0 : 1;
  if (command === undefined) throw new CliError('missing command (create, list, disable, enable or rotate)');
  if (!['create', 'list', 'disable', 'enable', 'rotate'].includes(command)) throw new CliError(`unknown command '${command}'`);
  if (rest.length !== want) throw new CliError(want ? `${command} takes one key id` : `${command} takes no arguments`);
  if (command !== 'create' && (values.plan !== undefined || values.org !== undefined)) {
    throw new CliError(`--plan and --org belong to create, not ${command}`);
  }
  let plan: (typeof PLAN_NAMES)[number] | undefined;
  const org = values.org ?? '';
  if (command === 'create') {
    if (values.plan === undefined) throw new CliError(`create needs --plan (${PLAN_NAMES.join(', ')})`);
    if (!isPlanName(values.plan)) throw new CliError(`unknown plan '${values.plan}' (expected ${PLAN_NAMES.join(', ')})`);
    plan = values.plan;
    // Tabs and line breaks would break `list`'s one-line, tab-separated records.
    if (/[\x00-\x1f\x7f]/.test(org)) throw new CliError('--org must not contain tabs, line breaks or control characters');
  }

  const store = StateStore.open(resolveStateDir(values.state));
  try {
    const id = rest[0];
    switch (command) {
      case 'create': {
        const { record, key } = await store.keys.create(plan!, org);
        out(`created key ${record.id} (plan ${record.plan}); it is shown only now:`);
        return out(key);
      }
      case 'list':
        for (const r of store.keys.list()) out(listLine(r));
        return;
      case 'disable':
      case 'enable': {
        const r = await store.keys.setDisabled(id, command === 'disable');
        if (r === undefined) throw new CliError(`unknown key id '${id}'`, 1);
        return out(`${command}d key ${id}`);
      }
      case 'rotate': {
        const issued = await store.keys.rotate(id);
        if (issued === undefined) throw new CliError(`unknown key id '${id}'`, 1);
        out(`rotated key ${id}; the old key no longer works. The new one is shown only now:`);
        return out(issued.key);
      }
    }
  } finally {
    await store.close();
  }
}

run(process.argv.slice(2), (line) => process.stdout.write(line + '\n')).catch((err: unknown) => {
  if (err instanceof CliError) {
    process.stderr.write(`keys: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else {
    process.stderr.write(`keys: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
});
