import { sha256Hex } from '../audit/canonical-json.js';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { HostStore } from '../store/host-store.js';
import type { CredentialKey } from '../store/credentials.js';
import { credentialKeyText } from '../store/credentials.js';
import type { TokenVault } from './token-vault.js';

/** One input's value as the user gave it: which user, which config declares it, and its id there. */
export interface StoredInputKey {
  readonly userId: string;
  /** The config file (or source) declaring the input: a value given for one config is never sent by another. */
  readonly source: string;
  readonly inputId: string;
}

/**
 * The values users gave `${input:ID}`, kept sealed in the store beside their sign-in tokens (AES-256-GCM, the
 * token vault): a copy of the database gives none away. Each is bound to the user and to the config file that
 * declares it, so a config the user did not write cannot ask for, and send elsewhere, a value given to another.
 *
 * Kept as `tokens` credentials under an identity of their own (`input:<hash of the source>:<id>`), which no server
 * identity (a hex hash) can equal, so the stores' schema is unchanged.
 */
export class StoredInputs {
  readonly #store: HostStore;
  readonly #vault: TokenVault;
  readonly #clock: Clock;

  constructor(options: { readonly store: HostStore; readonly vault: TokenVault; readonly clock?: Clock }) {
    this.#store = options.store;
    this.#vault = options.vault;
    this.#clock = options.clock ?? systemClock;
  }

  /** The value given, or undefined when none was (or it was cleared). */
  async get(key: StoredInputKey): Promise<string | undefined> {
    const credential = credentialKeyOf(key);
    const record = await this.#store.getCredential(credential);
    if (record === undefined) return undefined;
    const value = this.#vault.open(record.sealed, credentialKeyText(credential));
    return typeof value === 'string' ? value : undefined;
  }

  /** Keeps `value` (sealed), replacing any value given before; `audit`, when given, is committed with it. */
  async set(key: StoredInputKey, value: string, audit?: AuditEventInput): Promise<void> {
    const credential = credentialKeyOf(key);
    const sealed = this.#vault.seal(value, credentialKeyText(credential));
    await this.#store.write([
      { kind: 'credential.put', key: credential, sealed, updatedAt: this.#clock.now() },
      ...(audit === undefined ? [] : [{ kind: 'audit' as const, audit }]),
    ]);
  }

  /** Forgets the value; true when there was one. `audit`, when given, is committed with it (only when there was). */
  async clear(key: StoredInputKey, audit?: AuditEventInput): Promise<boolean> {
    const credential = credentialKeyOf(key);
    const had = (await this.#store.getCredential(credential)) !== undefined;
    await this.#store.write([
      { kind: 'credential.delete', key: credential },
      ...(audit === undefined || !had ? [] : [{ kind: 'audit' as const, audit }]),
    ]);
    return had;
  }
}

function credentialKeyOf(key: StoredInputKey): CredentialKey {
  return {
    kind: 'tokens',
    userId: key.userId,
    serverIdentity: `input:${sha256Hex(key.source).slice(0, 16)}:${key.inputId}`,
    issuer: '',
  };
}
