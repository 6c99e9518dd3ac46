import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  validateAuthorizationResponseIssuer,
} from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import { authAudit } from './auth-audit.js';
import { isRootMetadataOfTheOldEra } from './old-era-metadata.js';
import { authFailed, describeCause } from './auth-errors.js';
import { httpsOnlyFetch, timedFetch } from './https-only-fetch.js';
import type { SignInFlow } from './sign-in-flow.js';
import type { UserOAuthProvider } from './user-oauth-provider.js';

/** What a server's `WWW-Authenticate` challenge (401 or 403) said. */
export interface AuthChallenge {
  /** The scopes the server asks for, space-separated. */
  readonly scope?: string;
  /** Where its protected resource metadata is (RFC 9728). */
  readonly resourceMetadataUrl?: URL;
}

/** How to run one sign-in. */
export interface SignInOptions {
  /** The scopes to ask for; default: the challenge's, else the configured ones, else the metadata's. */
  readonly scope?: string;
  /** The challenge of the server's last 401; without it, sign-in asks the server for one first. */
  readonly challenge?: AuthChallenge;
  readonly signal?: AbortSignal;
  /** The fetch under the https guard (default the global fetch). */
  readonly fetch?: FetchLike;
}

/** What a sign-in obtained (never the tokens themselves). */
export interface SignInResult {
  readonly serverId: string;
  readonly issuer: string | undefined;
  /** The scopes granted, as the authorization server said. */
  readonly scope: string | undefined;
  readonly expiresAt: number | undefined;
  readonly clientIdentity: SignInFlow['clientIdentity'];
}

/**
 * Signs the provider's user in to its server with the SDK's `auth()`: discovery (RFC 9728 from the challenge or the
 * well-known paths, then RFC 8414 with OpenID fallback), the client identity (pre-registered, metadata document,
 * dynamic registration), PKCE S256 with `resource` (RFC 8707), the surface's `authorize` for the user's consent, then
 * the checks on the redirect (its `state`, and `iss` per RFC 9207 where the server supports it) before the code is
 * exchanged. A machine server (client credentials) gets its token with no user step.
 *
 * All or nothing: the client registration, the tokens and the `auth.sign_in` audit event are stored in one write when
 * everything succeeded; a failure stores nothing and throws `auth_failed` naming the server and the step.
 */
export async function signIn(provider: UserOAuthProvider, options: SignInOptions = {}): Promise<SignInResult> {
  const { serverId } = provider;
  if (!provider.machine && provider.options.authorize === undefined) {
    throw authFailed(serverId, 'authorization', 'no surface can show the sign-in page (Surface.authorize is missing)');
  }
  if (!provider.machine && provider.options.redirectUrl === undefined) {
    throw new HostError('config_invalid', `server ${serverId}: sign-in needs a redirect URL`, { data: { serverId } });
  }
  const flow = provider.beginFlow(true);
  const fetchFn = httpsOnlyFetch(serverId, timedFetch(options.fetch ?? fetch), flow);
  try {
    return await provider.inFlow(flow, () => runSignIn(provider, flow, options, fetchFn));
  } catch (error) {
    await provider.endFlow(flow, undefined);
    throw asAuthError(provider, flow, error);
  }
}

/** The sign-in itself, inside its flow: the SDK's two `auth()` legs around the user's consent. */
async function runSignIn(
  provider: UserOAuthProvider,
  flow: SignInFlow,
  options: SignInOptions,
  fetchFn: FetchLike,
): Promise<SignInResult> {
  const { serverId } = provider;
  options.signal?.throwIfAborted();
  const challenge = options.challenge ?? (await probe(provider, fetchFn));
  const resourceMetadata = await checkResourceMetadata(provider, challenge, fetchFn);
  const scope = options.scope ?? challenge.scope ?? provider.options.oauth?.scopes?.join(' ');
  const common: Parameters<typeof auth>[1] = {
    serverUrl: provider.serverUrl,
    fetchFn,
    ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
  };
  const start = { ...common, ...(scope ? { scope } : {}), forceReauthorization: true };
  let first;
  try {
    first = await auth(provider, start);
  } catch (error) {
    if (resourceMetadata !== 'absent' || !isRootMetadataOfTheOldEra(error, provider.serverUrl)) throw error;
    // A server with no protected resource metadata is of the 2025-03-26 era, whose clients read the authorization
    // server's metadata at the server's own origin and did not check its issuer: that era's servers (the suite's
    // back-compat scenario among them) name another. Only then, and only for that document, the check is left out.
    common.skipIssuerMetadataValidation = true;
    first = await auth(provider, { ...start, skipIssuerMetadataValidation: true });
  }
  if (first === 'REDIRECT') {
    const back = await askUser(provider, flow, options.signal);
    const { code, iss } = checkRedirect(provider, flow, back);
    flow.step = 'token';
    await auth(provider, { ...common, authorizationCode: code, ...(iss === undefined ? {} : { iss }) });
  }
  const obtained = flow.tokens;
  if (obtained === undefined) throw authFailed(serverId, 'token', 'the authorization server issued no tokens');
  const result: SignInResult = {
    serverId,
    issuer: obtained.tokens.issuer,
    scope: obtained.tokens.scope,
    expiresAt: obtained.expiresAt,
    clientIdentity: flow.clientIdentity,
  };
  const audit = authAudit(provider, 'auth.sign_in', {
    issuer: result.issuer ?? null,
    scope: result.scope ?? null,
    grant: provider.machine ? 'client_credentials' : 'authorization_code',
    clientIdentity: result.clientIdentity ?? null,
    refreshable: obtained.tokens.refresh_token !== undefined,
  });
  await provider.endFlow(flow, audit);
  return result;
}

/** The server's challenge to a request with no token: where its metadata is and which scopes it wants. */
async function probe(provider: UserOAuthProvider, fetchFn: FetchLike): Promise<AuthChallenge> {
  let response: Response;
  try {
    response = await fetchFn(provider.serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    });
  } catch (error) {
    if (error instanceof HostError) throw error;
    throw authFailed(provider.serverId, 'discovery', `the server cannot be reached: ${describeCause(error)}`, error);
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401 && response.status !== 403) return {};
  const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
  return { ...(scope ? { scope } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) };
}

/**
 * Refuses protected resource metadata that is there but broken. The SDK treats any failure to read it as "none" and
 * falls back to the server's own origin as its authorization server (the 2025-03-26 rule), which turns a malformed
 * document into a baffling error at a later step; absent metadata (404) keeps that fallback.
 */
async function checkResourceMetadata(
  provider: UserOAuthProvider,
  challenge: AuthChallenge,
  fetchFn: FetchLike,
): Promise<'present' | 'absent'> {
  try {
    await discoverOAuthProtectedResourceMetadata(
      provider.serverUrl,
      challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl },
      fetchFn,
    );
    return 'present';
  } catch (error) {
    if (error instanceof HostError) throw error;
    if (error instanceof Error && error.message.startsWith('Resource server does not implement')) return 'absent';
    const where = challenge.resourceMetadataUrl?.href ?? 'the well-known path';
    throw authFailed(
      provider.serverId,
      'discovery',
      `the protected resource metadata at ${where} is not valid: ${describeCause(error).slice(0, 300)}`,
      error,
    );
  }
}

/** Hands the authorization URL to the surface; its answer is the redirect URL (a rejection: the user gave up). */
async function askUser(provider: UserOAuthProvider, flow: SignInFlow, signal: AbortSignal | undefined): Promise<URL> {
  const url = flow.authorizationUrl;
  const authorize = provider.options.authorize;
  if (url === undefined || authorize === undefined) {
    throw authFailed(provider.serverId, 'authorization', 'the SDK asked for a redirect but gave no URL');
  }
  const scope = url.searchParams.get('scope') ?? undefined;
  let answer: URL | string;
  try {
    answer = await authorize(
      { serverId: provider.serverId, authorizationUrl: url, ...(scope ? { scope } : {}) },
      signal,
    );
  } catch (error) {
    throw authFailed(provider.serverId, 'authorization', `the sign-in was not completed: ${describeCause(error)}`);
  }
  try {
    return new URL(answer);
  } catch {
    throw authFailed(provider.serverId, 'authorization', 'the surface answered something that is not a URL');
  }
}

/** Checks the redirect before its code is used: our callback, no error, our state, the right issuer. */
function checkRedirect(provider: UserOAuthProvider, flow: SignInFlow, back: URL): { code: string; iss?: string } {
  const fail = (why: string, cause?: unknown) => authFailed(provider.serverId, 'authorization', why, cause);
  const expected = new URL(String(provider.redirectUrl));
  if (back.origin !== expected.origin || back.pathname !== expected.pathname) {
    throw fail(`the redirect went to ${back.origin}${back.pathname}, not to this host's ${expected.href}`);
  }
  const params = back.searchParams;
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw fail(`the authorization server answered ${error}${description ? ` (${description})` : ''}`);
  }
  if (flow.state === undefined || params.get('state') !== flow.state) {
    throw fail('the redirect does not carry the state this sign-in sent (a stale or forged redirect): refused');
  }
  const metadata = provider.discoveryState()?.authorizationServerMetadata;
  const iss = params.get('iss') ?? undefined;
  try {
    validateAuthorizationResponseIssuer({
      iss,
      expectedIssuer: metadata?.issuer,
      issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
    });
  } catch (cause) {
    throw fail(`the redirect's issuer is wrong (authorization server mix-up refused): ${describeCause(cause)}`, cause);
  }
  const code = params.get('code');
  if (code === null || code === '') throw fail('the redirect carries no authorization code');
  return { code, ...(iss === undefined ? {} : { iss }) };
}

/** Any failure of a sign-in as a `HostError`: ours as they are, the SDK's as `auth_failed` at the flow's step. */
export function asAuthError(provider: UserOAuthProvider, flow: SignInFlow, error: unknown): HostError {
  if (flow.refused instanceof HostError) return flow.refused;
  if (error instanceof HostError) return error;
  return authFailed(provider.serverId, flow.step, describeCause(error), error);
}
