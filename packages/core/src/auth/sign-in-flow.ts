import { AsyncLocalStorage } from 'node:async_hooks';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { HostError } from '../errors/host-error.js';
import type { CredentialKey } from '../store/credentials.js';
import type { AuthStep } from './auth-errors.js';

/** What the store keeps, sealed, for a user's tokens. */
export interface SealedTokens {
  readonly tokens: StoredOAuthTokens;
  /** When the access token expires by the host's clock (ms), when the server said. */
  readonly expiresAt?: number;
  readonly savedAt: number;
  /**
   * The client the tokens were issued to: refreshing and revoking use it, whatever registration (another redirect
   * URL: the CLI's loopback port, another console) the issuer's row holds now.
   */
  readonly client?: StoredOAuthClientInformation;
}

/** One sign-in under way: what it learned, kept in memory and stored in one batch only when it succeeds. */
export interface SignInFlow {
  /** The provider it belongs to. */
  readonly owner: object;
  step: AuthStep;
  codeVerifier?: string;
  readonly interactive: boolean;
  authorizationUrl?: URL;
  state?: string;
  /** A client registration made during this flow (stored with the tokens). */
  newClient?: StoredOAuthClientInformation;
  /** The client this flow asks for tokens with (kept with the tokens it gets). */
  client?: StoredOAuthClientInformation;
  clientIdentity?: 'pre-registered' | 'metadata-document' | 'dynamic';
  tokens?: SealedTokens;
  /** Why the guarded fetch refused a request (reported even when the SDK swallowed the refusal). */
  refused?: HostError;
}

/**
 * The sign-in each async call chain runs in: the SDK calls the provider's methods with no sign-in context, so a sign-in
 * and a transport's own refresh on the same provider at the same time must not see each other's verifier or state.
 */
export const flows = new AsyncLocalStorage<SignInFlow>();

/** The key of the client registration with `issuer`. */
export function clientKey(issuer: string): CredentialKey {
  return { kind: 'client', userId: '', serverIdentity: '', issuer };
}

/** Issuers compared as the SDK does: one trailing slash of difference is tolerated. */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}
