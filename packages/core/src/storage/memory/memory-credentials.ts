import {
  credentialFilter,
  credentialKeyText,
  credentialMatches,
  credentialMatchesFilter,
  storedCredential,
  storedCredentialDeletion,
  storedCredentialKey,
} from '../../store/credentials.js';
import type { StoreWrite } from '../../store/host-store.js';
import type { CredentialFilter, CredentialKey, CredentialMatch, CredentialRecord } from '../../store/credentials.js';

/**
 * The credentials of a `MemoryStore`: sealed values by key. Each change returns what takes it back, so a refused
 * batch leaves none of its writes.
 */
export class MemoryCredentials {
  readonly #rows = new Map<string, CredentialRecord>();

  /** Applies a `credential.put` or `credential.delete` write; returns what takes it back. */
  apply(write: Extract<StoreWrite, { kind: 'credential.put' | 'credential.delete' }>): () => void {
    if (write.kind === 'credential.put') {
      return this.put({ key: write.key, sealed: write.sealed, updatedAt: write.updatedAt });
    }
    return this.delete(write);
  }

  /** Stores the record, replacing the one with its key; returns what puts the old one back. */
  put(record: CredentialRecord): () => void {
    const stored = storedCredential(record);
    const text = credentialKeyText(stored.key);
    const previous = this.#rows.get(text);
    this.#rows.set(text, stored);
    return () => {
      if (previous === undefined) this.#rows.delete(text);
      else this.#rows.set(text, previous);
    };
  }

  /** Deletes the key's record or every record the match takes; returns what puts them back. */
  delete(write: { readonly key?: CredentialKey; readonly match?: CredentialMatch }): () => void {
    const deletion = storedCredentialDeletion(write);
    const removed: [string, CredentialRecord][] = [];
    for (const [text, record] of this.#rows) {
      const taken =
        'key' in deletion ? text === credentialKeyText(deletion.key) : credentialMatches(record.key, deletion.match);
      if (taken) removed.push([text, record]);
    }
    for (const [text] of removed) this.#rows.delete(text);
    return () => {
      for (const [text, record] of removed) this.#rows.set(text, record);
    };
  }

  get(key: CredentialKey): CredentialRecord | undefined {
    const record = this.#rows.get(credentialKeyText(storedCredentialKey(key)));
    return record === undefined ? undefined : { ...record, key: { ...record.key } };
  }

  list(filter: CredentialFilter): CredentialRecord[] {
    const checked = credentialFilter(filter);
    return [...this.#rows.values()]
      .filter((record) => credentialMatchesFilter(record.key, checked))
      .map((record) => ({ ...record, key: { ...record.key } }));
  }

  clear(): void {
    this.#rows.clear();
  }
}
