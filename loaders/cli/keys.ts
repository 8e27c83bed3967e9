// The keys command: create, list, disable, enable, rotate API keys and change their plan in STATE_DIR's key store.

import { exitOnError, startProgram } from '../config/run-program.js';
import { KindError } from '../config/kinds.js';
import { SettingError } from '../config/read-settings.js';
import { KEYS } from '../config/settings.js';
import { DEFAULT_PLANS, type PlanName, type Plans } from '../../engine/plans.js';
import type { KeyRecord } from '../state/key-store.js';
import { StateStore } from '../state/state-store.js';

/** An unknown key id: one line on stderr and exit code 1 (a bad command or flag is a SettingError, exit 2). */
class UnknownKey extends Error {}

function listLine(r: KeyRecord): string {
  return [r.id, r.plan, r.disabled ? 'disabled' : 'enabled', r.org, r.created].join('\t');
}

/** Each command and the arguments it takes after its name (KEYS.about describes them for --help). */
const COMMANDS: Record<string, { args: number; usage: string }> = {
  create: { args: 0, usage: 'create takes no arguments' },
  list: { args: 0, usage: 'list takes no arguments' },
  disable: { args: 1, usage: 'disable takes one key id' },
  enable: { args: 1, usage: 'enable takes one key id' },
  rotate: { args: 1, usage: 'rotate takes one key id' },
  'set-plan': { args: 2, usage: 'set-plan takes a key id and a plan: set-plan <id> <plan>' },
};

/** A plan in force (the built-in ones and PLANS_FILE's), checked like --plan; `what` names it in the exit-2 line. */
function planIn(plans: Plans, text: string, what: string): PlanName {
  try {
    KEYS.settings.plan.kind.parse(text);
  } catch (error) {
    if (error instanceof KindError) throw new SettingError(`${what} must ${error.message}, got '${text}'`);
    throw error;
  }
  if (!plans.has(text)) {
    const hint =
      plans.source === null
        ? " (other plans: set PLANS_FILE or --plans-file to the server's file)"
        : ` (PLANS_FILE ${plans.source})`;
    throw new SettingError(`${what} must be one of ${plans.names.join(', ')}, got '${text}'${hint}`);
  }
  return text;
}

async function run(out: (line: string) => void): Promise<void> {
  const { values, positionals } = startProgram(KEYS);
  const [command, ...rest] = positionals;
  if (command === undefined)
    throw new SettingError(`missing command (${Object.keys(COMMANDS).join(', ')}); --help lists them`);
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (spec === undefined) throw new SettingError(`unknown command '${command}'; --help lists them`);
  if (rest.length !== spec.args) throw new SettingError(spec.usage);
  if (command !== 'create' && (values.plan !== null || values.org !== null))
    throw new SettingError(`--plan and --org belong to create, not ${command}`);
  const plans = values.plansFile ?? DEFAULT_PLANS;
  if (command === 'create' && values.plan === null)
    throw new SettingError(`create needs --plan (${plans.names.join(', ')})`);
  const newPlan =
    command === 'create'
      ? planIn(plans, values.plan!, '--plan')
      : command === 'set-plan'
        ? planIn(plans, rest[1], 'the plan of set-plan')
        : null;

  const store = StateStore.open(values.state);
  try {
    const id = rest[0];
    switch (command) {
      case 'create': {
        const { record, key } = await store.keys.create(newPlan!, values.org ?? '');
        out(`created key ${record.id} (plan ${record.plan}); it is shown only now:`);
        return out(key);
      }
      case 'list':
        for (const r of store.keys.list()) out(listLine(r));
        return;
      case 'disable':
      case 'enable': {
        const r = await store.keys.setDisabled(id, command === 'disable');
        if (r === undefined) throw new UnknownKey(`unknown key id '${id}'`);
        return out(`${command}d key ${id}`);
      }
      case 'rotate': {
        const issued = await store.keys.rotate(id);
        if (issued === undefined) throw new UnknownKey(`unknown key id '${id}'`);
        out(`rotated key ${id}; the old key no longer works. The new one is shown only now:`);
        return out(issued.key);
      }
      case 'set-plan': {
        const before = store.keys.get(id);
        const r = before === undefined ? undefined : await store.keys.setPlan(id, newPlan!);
        if (r === undefined) throw new UnknownKey(`unknown key id '${id}'`);
        return out(
          `key ${id}: plan ${before!.plan} → ${r.plan}; today's usage is kept and counts against the new plan`,
        );
      }
    }
  } finally {
    await store.close();
  }
}

run((line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
  if (!(error instanceof UnknownKey)) exitOnError(KEYS, error);
  process.stderr.write(`keys: ${error.message}\n`);
  process.exitCode = 1;
});
