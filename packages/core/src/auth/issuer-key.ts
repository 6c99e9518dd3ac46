import type { CredentialKey } from '../store/credentials.js';

/** The key of the client registration with `issuer`. */
export function clientKey(issuer: string): CredentialKey {
  return { kind: 'client', userId: '', serverIdentity: '', issuer };
}

/** Issuers compared as the SDK does: one trailing slash of difference is tolerated. */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}
