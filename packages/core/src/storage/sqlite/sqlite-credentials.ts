import {
  credentialFilter,
  storedCredential,
  storedCredentialDeletion,
  storedCredentialKey,
} from '../../store/credentials.js';
import type { CredentialFilter, CredentialKey, CredentialRecord } from '../../store/credentials.js';
import type { StoreWrite } from '../../store/host-store.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';
import { CREDENTIAL_COLUMNS, credentialFromRow, credentialKeyParams } from '../sql/credential-rows.js';
import type { CredentialRow } from '../sql/credential-rows.js';

const BY_KEY = 'kind = ? AND user_id = ? AND server_identity = ? AND issuer = ?';

/**
 * The credentials table of a `SqliteStore`: its statements, prepared once, and the two writes, which run inside the
 * store's write transaction (so a refused batch leaves none of them).
 */
export class SqliteCredentials {
  readonly #database: SqliteDatabase;
  readonly #upsert: SqliteStatement;
  readonly #deleteKey: SqliteStatement;
  readonly #deleteOfUser: SqliteStatement;
  readonly #deleteOfIssuer: SqliteStatement;
  readonly #get: SqliteStatement;

  constructor(database: SqliteDatabase) {
    this.#database = database;
    this.#upsert = database.prepare(
      `INSERT INTO credentials (${CREDENTIAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ` +
        'ON CONFLICT (kind, user_id, server_identity, issuer) DO UPDATE SET ' +
        'sealed = excluded.sealed, updated_at = excluded.updated_at',
    );
    this.#deleteKey = database.prepare(`DELETE FROM credentials WHERE ${BY_KEY}`);
    this.#deleteOfUser = database.prepare(
      "DELETE FROM credentials WHERE kind <> 'client' AND user_id = ? AND server_identity = ?",
    );
    this.#deleteOfIssuer = database.prepare("DELETE FROM credentials WHERE kind = 'client' AND issuer = ?");
    this.#get = database.prepare(`SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE ${BY_KEY}`);
  }

  /** Applies a `credential.put` or `credential.delete` write (inside the caller's transaction). */
  apply(write: Extract<StoreWrite, { kind: 'credential.put' | 'credential.delete' }>): void {
    if (write.kind === 'credential.put') {
      const record = storedCredential({ key: write.key, sealed: write.sealed, updatedAt: write.updatedAt });
      this.#upsert.run(...credentialKeyParams(record.key), record.sealed, record.updatedAt);
      return;
    }
    const deletion = storedCredentialDeletion(write);
    if ('key' in deletion) this.#deleteKey.run(...credentialKeyParams(deletion.key));
    else if ('kind' in deletion.match) this.#deleteOfIssuer.run(deletion.match.issuer);
    else this.#deleteOfUser.run(deletion.match.userId, deletion.match.serverIdentity);
  }

  get(key: CredentialKey): CredentialRecord | undefined {
    const row = this.#get.get(...credentialKeyParams(storedCredentialKey(key))) as CredentialRow | undefined;
    return row === undefined ? undefined : credentialFromRow(row);
  }

  /** Credentials matching the filter, in key order. Built per call: `auth status` is rare, not the call path. */
  list(filter: CredentialFilter): CredentialRecord[] {
    const checked = credentialFilter(filter);
    const where: string[] = [];
    const params: string[] = [];
    const columns = { kind: 'kind', userId: 'user_id', serverIdentity: 'server_identity', issuer: 'issuer' } as const;
    for (const field of ['kind', 'userId', 'serverIdentity', 'issuer'] as const) {
      const value = checked[field];
      if (value === undefined) continue;
      where.push(`${columns[field]} = ?`);
      params.push(value);
    }
    const sql =
      `SELECT ${CREDENTIAL_COLUMNS} FROM credentials` +
      (where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`) +
      ' ORDER BY kind, user_id, server_identity, issuer';
    return (this.#database.prepare(sql).all(...params) as CredentialRow[]).map(credentialFromRow);
  }
}
