import { HostError } from '../errors/host-error.js';

/**
 * What a stored credential is: a user's tokens for one server (`tokens`), a client registration with one
 * authorization server (`client`: shared by every user, since a registration belongs to the host), or the state of a
 * sign-in under way (`pending`: its PKCE verifier and state, until the redirect comes back).
 */
export type CredentialKind = 'tokens' | 'client' | 'pending';

/**
 * The key of a stored credential; all four fields together name one row. A user's tokens are keyed by the user and
 * the server's identity (its URL, hashed, as permission decisions key it), so another user never finds them and a
 * server whose URL changed starts afresh; `issuer` may name the authorization server that issued them (the auth layer
 * keeps '' here and the issuer inside the sealed value, as the SDK stamps it, so a user holds one token set per
 * server). A machine server's tokens (client credentials) belong to the host: `userId` ''. A client registration is keyed by its authorization server's issuer alone (`userId` and `serverIdentity`
 * are ''): a client id is only valid at the server that issued it (RFC 6749 section 2.2).
 */
export interface CredentialKey {
  readonly kind: CredentialKind;
  readonly userId: string;
  readonly serverIdentity: string;
  readonly issuer: string;
}

/**
 * One stored credential. The store keeps `sealed` as it is given: the ciphertext (base64) the token vault made, never
 * a token in the clear, so a copy of the database gives away nothing without the key.
 */
export interface CredentialRecord {
  readonly key: CredentialKey;
  readonly sealed: string;
  /** When it was last written, in milliseconds. */
  readonly updatedAt: number;
}

/**
 * Which credentials one `credential.delete` removes besides an exact key: everything of one user for one server
 * (tokens and a pending sign-in, whatever the issuer: signing out), or every client registration with one issuer.
 */
export type CredentialMatch =
  { readonly userId: string; readonly serverIdentity: string } | { readonly kind: 'client'; readonly issuer: string };

/** Which credentials to list: every field given must match; none given lists every credential. */
export interface CredentialFilter {
  readonly kind?: CredentialKind;
  readonly userId?: string;
  readonly serverIdentity?: string;
  readonly issuer?: string;
}

const KINDS: Record<CredentialKind, true> = { tokens: true, client: true, pending: true };

function invalid(message: string): HostError {
  return new HostError('invalid_arguments', message);
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`a credential's ${field} must be a string, not ${typeof value}`);
  return value;
}

/** The key exactly as a store keeps it (its four fields), refused as `invalid_arguments` when it is not one. */
export function storedCredentialKey(key: CredentialKey): CredentialKey {
  if (typeof key !== 'object' || key === null) throw invalid('a credential key must be an object');
  if (!Object.hasOwn(KINDS, key.kind)) throw invalid(`unknown credential kind ${String(key.kind)}`);
  const stored = {
    kind: key.kind,
    userId: text(key.userId, 'userId'),
    serverIdentity: text(key.serverIdentity, 'serverIdentity'),
    issuer: text(key.issuer, 'issuer'),
  };
  // userId may be '': a machine server's tokens (client credentials) belong to the host, not to a user.
  if (stored.kind === 'client' ? stored.issuer === '' : stored.serverIdentity === '') {
    throw invalid(
      stored.kind === 'client'
        ? 'a client credential is keyed by its issuer, which must not be empty'
        : `a ${stored.kind} credential needs a serverIdentity`,
    );
  }
  return stored;
}

/** The record exactly as a store keeps it, refused as `invalid_arguments` when it could not be kept faithfully. */
export function storedCredential(record: CredentialRecord): CredentialRecord {
  if (typeof record !== 'object' || record === null) throw invalid('a credential must be an object');
  const key = storedCredentialKey(record.key);
  if (typeof record.sealed !== 'string' || record.sealed === '') {
    throw invalid('a credential must carry its sealed value (non-empty ciphertext)');
  }
  if (typeof record.updatedAt !== 'number' || !Number.isFinite(record.updatedAt)) {
    throw invalid("a credential's updatedAt must be a time in milliseconds");
  }
  return { key, sealed: record.sealed, updatedAt: record.updatedAt };
}

/** The match exactly as a store applies it, refused as `invalid_arguments` when it names neither form. */
export function storedCredentialMatch(match: CredentialMatch): CredentialMatch {
  if (typeof match !== 'object' || match === null) throw invalid('a credential match must be an object');
  if ('kind' in match) {
    if (match.kind !== 'client') throw invalid('a credential match by issuer deletes client entries only');
    const issuer = text(match.issuer, 'issuer');
    if (issuer === '') throw invalid('a credential match by issuer needs the issuer');
    return { kind: 'client', issuer };
  }
  const userId = text(match.userId, 'userId');
  const serverIdentity = text(match.serverIdentity, 'serverIdentity');
  if (serverIdentity === '') throw invalid('a credential match needs a serverIdentity');
  return { userId, serverIdentity };
}

/** True when the record's key matches the filter. */
export function credentialMatchesFilter(key: CredentialKey, filter: CredentialFilter): boolean {
  return (
    (filter.kind === undefined || key.kind === filter.kind) &&
    (filter.userId === undefined || key.userId === filter.userId) &&
    (filter.serverIdentity === undefined || key.serverIdentity === filter.serverIdentity) &&
    (filter.issuer === undefined || key.issuer === filter.issuer)
  );
}

/** True when a `credential.delete` match takes the record with this key. */
export function credentialMatches(key: CredentialKey, match: CredentialMatch): boolean {
  if ('kind' in match) return key.kind === 'client' && key.issuer === match.issuer;
  return key.kind !== 'client' && key.userId === match.userId && key.serverIdentity === match.serverIdentity;
}

/** The filter checked (each field given must be a string; a kind must be known). */
export function credentialFilter(filter: CredentialFilter): CredentialFilter {
  if (typeof filter !== 'object' || filter === null) throw invalid('a credential filter must be an object');
  if (filter.kind !== undefined && !Object.hasOwn(KINDS, filter.kind)) {
    throw invalid(`unknown credential kind ${String(filter.kind)}`);
  }
  for (const field of ['userId', 'serverIdentity', 'issuer'] as const) {
    if (filter[field] !== undefined) text(filter[field], field);
  }
  return filter;
}

/** What a `credential.delete` removes, checked: exactly one of an exact key and a match. */
export type CredentialDeletion = { readonly key: CredentialKey } | { readonly match: CredentialMatch };

/** The deletion a `credential.delete` write asks for, refused as `invalid_arguments` unless it names exactly one. */
export function storedCredentialDeletion(write: {
  readonly key?: CredentialKey;
  readonly match?: CredentialMatch;
}): CredentialDeletion {
  if ((write.key === undefined) === (write.match === undefined)) {
    throw invalid('a credential.delete names exactly one of key and match');
  }
  return write.key !== undefined
    ? { key: storedCredentialKey(write.key) }
    : { match: storedCredentialMatch(write.match as CredentialMatch) };
}

/** One text for a key, for maps: the four fields in order. */
export function credentialKeyText(key: CredentialKey): string {
  return JSON.stringify([key.kind, key.userId, key.serverIdentity, key.issuer]);
}
