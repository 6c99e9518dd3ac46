import { AsyncLocalStorage } from 'node:async_hooks';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { HostError } from '../errors/host-error.js';
import type { SealedTokens } from './sealed-tokens.js';
import type { AuthStep } from './auth-errors.js';

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
