import type { CredentialKey, CredentialKind, CredentialRecord } from '../../store/credentials.js';

// Credentials (the token vault's sealed records), the same columns in SQLite and PostgreSQL.

export const CREDENTIAL_COLUMNS = 'kind, user_id, server_identity, issuer, sealed, updated_at';

export interface CredentialRow {
  readonly kind: CredentialKind;
  readonly user_id: string;
  readonly server_identity: string;
  readonly issuer: string;
  readonly sealed: string;
  readonly updated_at: number;
}

export function credentialFromRow(row: CredentialRow): CredentialRecord {
  return {
    key: { kind: row.kind, userId: row.user_id, serverIdentity: row.server_identity, issuer: row.issuer },
    sealed: row.sealed,
    updatedAt: row.updated_at,
  };
}

export function credentialKeyParams(key: CredentialKey): [string, string, string, string] {
  return [key.kind, key.userId, key.serverIdentity, key.issuer];
}
