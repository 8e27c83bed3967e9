// Operator state in its own LMDB environment `<STATE_DIR>/operator/`: the password hash and key contacts.

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { generatePassword, hashPassword, passwordMatches, type PasswordHash } from './operator-password.js';
import { committed, refuseWithoutRoom, STATE_ENV_OPTIONS } from './state-write.js';

const PASSWORD = 'password';
/** lmdb-js forbids opening one environment twice in a process (lmdb-js#164). */
const openPaths = new Set<string>();

/**
 * The dashboard's operator credentials (a salted scrypt hash only) and the optional contact
 * e-mail of each API key (kept beside the key records, so existing records stay as they are).
 * The `admin` command and a running server may both open it; reads see the other's commits.
 */
export class OperatorStore {
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly env: RootDatabase,
    private readonly secrets: Database<PasswordHash, string>,
    private readonly contacts: Database<string, string>,
  ) {}

  /** Opens (creating if needed) the operator environment of `stateDir`. */
  static open(stateDir: string): OperatorStore {
    const path = join(resolve(stateDir), 'operator');
    if (openPaths.has(path)) throw new Error(`operator store ${path} is already open in this process`);
    mkdirSync(path, { recursive: true, mode: 0o700 }); // a password hash: owner only
    const env = open({ path, maxDbs: 2, ...STATE_ENV_OPTIONS });
    openPaths.add(path);
    return new OperatorStore(
      path,
      env,
      env.openDB<PasswordHash, string>({ name: 'credentials' }),
      env.openDB<string, string>({ name: 'contacts' }),
    );
  }

  /** The stored hash, as last committed by any process (the admin command may have changed it). */
  private current(): PasswordHash | undefined {
    this.env.resetReadTxn();
    return this.secrets.get(PASSWORD);
  }

  /** True once a password is set. */
  hasPassword(): boolean {
    return this.current() !== undefined;
  }

  /** When the password was last set (ISO instant), or null: sessions from before it are void. */
  passwordStamp(): string | null {
    return this.current()?.set ?? null;
  }

  /** Stores the salted hash of `password`, replacing any previous one. */
  async setPassword(password: string, now: Date = new Date()): Promise<void> {
    const record = await hashPassword(password, now);
    refuseWithoutRoom('the operator password', this.path);
    await committed(this.secrets.put(PASSWORD, record), 'the operator password', this.path);
  }

  /** True when `password` is the operator's (false when none is set). */
  async verifyPassword(password: string): Promise<boolean> {
    const stored = this.current();
    return stored !== undefined && passwordMatches(password, stored);
  }

  /** With no password set: sets a generated one and returns it (to print once); otherwise null. */
  async ensurePassword(): Promise<string | null> {
    if (this.hasPassword()) return null;
    const password = generatePassword();
    await this.setPassword(password);
    return password;
  }

  /** The contact e-mail of key `id`, or null. */
  contact(id: string): string | null {
    return this.contacts.get(id) ?? null;
  }

  /** Every key's contact e-mail, by key id. */
  allContacts(): Map<string, string> {
    const out = new Map<string, string>();
    for (const { key, value } of this.contacts.getRange()) out.set(key, value);
    return out;
  }

  /** Sets (or with null, removes) the contact e-mail of key `id`. */
  async setContact(id: string, email: string | null): Promise<void> {
    refuseWithoutRoom(`the contact of key ${id}`, this.path);
    const write = email === null ? this.contacts.remove(id) : this.contacts.put(id, email);
    await committed(write, `the contact of key ${id}`, this.path);
  }

  /** Waits for pending writes, then closes the environment. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // lmdb-js's `flushed` never settles after a failed commit (a full disk), which its writer was told of.
    if (
      await this.env.committed.then(
        () => true,
        () => false,
      )
    )
      await this.env.flushed;
    await this.env.close();
    openPaths.delete(this.path);
  }
}
