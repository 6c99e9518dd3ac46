import {
  credentialFilter,
  storedCredential,
  storedCredentialDeletion,
  storedCredentialKey,
} from '../../store/credentials.js';
import type { CredentialFilter, CredentialKey, CredentialRecord } from '../../store/credentials.js';
import type { StoreWrite } from '../../store/host-store.js';
import { PARSERS } from './postgres-statements.js';
import type { PgClient, PgPool } from './postgres-store-config.js';
import { CREDENTIAL_COLUMNS, credentialFromRow, credentialKeyParams } from '../sql/credential-rows.js';
import type { CredentialRow } from '../sql/credential-rows.js';

// The credentials table of a PostgresStore (migration 2): the two writes, run inside the batch's transaction, and
// the two reads. The store keeps the token vault's ciphertext as given, never a token in the clear.

const BY_KEY = 'kind = $1 AND user_id = $2 AND server_identity = $3 AND issuer = $4';

/** Applies a `credential.put` or `credential.delete` write on the batch's connection. */
export async function applyCredentialWrite(
  client: PgClient,
  write: Extract<StoreWrite, { kind: 'credential.put' | 'credential.delete' }>,
): Promise<void> {
  if (write.kind === 'credential.put') {
    const record = storedCredential({ key: write.key, sealed: write.sealed, updatedAt: write.updatedAt });
    await client.query({
      name: 'airlock_credential_put',
      text:
        `INSERT INTO credentials (${CREDENTIAL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ` +
        'ON CONFLICT (kind, user_id, server_identity, issuer) DO UPDATE SET ' +
        'sealed = excluded.sealed, updated_at = excluded.updated_at',
      values: [...credentialKeyParams(record.key), record.sealed, record.updatedAt],
    });
    return;
  }
  const deletion = storedCredentialDeletion(write);
  if ('key' in deletion) {
    await client.query({
      name: 'airlock_credential_delete',
      text: `DELETE FROM credentials WHERE ${BY_KEY}`,
      values: credentialKeyParams(deletion.key),
    });
  } else if ('kind' in deletion.match) {
    await client.query({
      name: 'airlock_credential_delete_of_issuer',
      text: "DELETE FROM credentials WHERE kind = 'client' AND issuer = $1",
      values: [deletion.match.issuer],
    });
  } else {
    await client.query({
      name: 'airlock_credential_delete_of_user',
      text: "DELETE FROM credentials WHERE kind <> 'client' AND user_id = $1 AND server_identity = $2",
      values: [deletion.match.userId, deletion.match.serverIdentity],
    });
  }
}

/** The credential with exactly this key. */
export async function getCredential(pool: PgPool, key: CredentialKey): Promise<CredentialRecord | undefined> {
  const { rows } = await pool.query({
    name: 'airlock_credential_get',
    text: `SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE ${BY_KEY}`,
    values: credentialKeyParams(storedCredentialKey(key)),
    types: PARSERS,
  });
  const row = rows[0] as CredentialRow | undefined;
  return row === undefined ? undefined : credentialFromRow(row);
}

/** Credentials matching the filter, in key order (byte order, as SQLite sorts). */
export async function listCredentials(pool: PgPool, filter: CredentialFilter): Promise<CredentialRecord[]> {
  const checked = credentialFilter(filter);
  const columns = { kind: 'kind', userId: 'user_id', serverIdentity: 'server_identity', issuer: 'issuer' } as const;
  const where: string[] = [];
  const values: string[] = [];
  for (const field of ['kind', 'userId', 'serverIdentity', 'issuer'] as const) {
    const value = checked[field];
    if (value === undefined) continue;
    values.push(value);
    where.push(`${columns[field]} = $${values.length}`);
  }
  const order = ['kind', 'user_id', 'server_identity', 'issuer'].map((c) => `${c} COLLATE "C"`).join(', ');
  const { rows } = await pool.query({
    text:
      `SELECT ${CREDENTIAL_COLUMNS} FROM credentials` +
      (where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`) +
      ` ORDER BY ${order}`,
    values,
    types: PARSERS,
  });
  return (rows as CredentialRow[]).map(credentialFromRow);
}
