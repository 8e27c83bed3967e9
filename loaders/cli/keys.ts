// The keys command: create, list, disable, enable and rotate API keys in STATE_DIR's key store.

import { exitOnError, startProgram } from '../config/run-program.js';
import { SettingError } from '../config/read-settings.js';
import { KEYS } from '../config/settings.js';
import { PLAN_NAMES } from '../../engine/plans.js';
import type { KeyRecord } from '../state/key-store.js';
import { StateStore } from '../state/state-store.js';

/** An unknown key id: one line on stderr and exit code 1 (a bad command or flag is a SettingError, exit 2). */
class UnknownKey extends Error {}

function listLine(r: KeyRecord): string {
  return [r.id, r.plan, r.disabled ? 'disabled' : 'enabled', r.org, r.created].join('\t');
}

async function run(out: (line: string) => void): Promise<void> {
  const { values, positionals } = startProgram(KEYS);
  const [command, ...rest] = positionals;
  const want = command === 'create' || command === 'list' ? 0 : 1;
  if (command === undefined) throw new SettingError('missing command (create, list, disable, enable or rotate); --help lists them');
  if (!['create', 'list', 'disable', 'enable', 'rotate'].includes(command)) throw new SettingError(`unknown command '${command}'; --help lists them`);
  if (rest.length !== want) throw new SettingError(want ? `${command} takes one key id` : `${command} takes no arguments`);
  if (command !== 'create' && (values.plan !== null || values.org !== null)) throw new SettingError(`--plan and --org belong to create, not ${command}`);
  if (command === 'create' && values.plan === null) throw new SettingError(`create needs --plan (${PLAN_NAMES.join(', ')})`);

  const store = StateStore.open(values.state);
  try {
    const id = rest[0];
    switch (command) {
      case 'create': {
        const { record, key } = await store.keys.create(values.plan!, values.org ?? '');
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
    }
  } finally {
    await store.close();
  }
}

run((line) => process.stdout.write(line + '\n')).catch((error: unknown) => {
  if (!(error instanceof UnknownKey)) exitOnError(KEYS, error);
  process.stderr.write(`keys: ${error.message}\n`);
  process.exitCode = 1;
});
