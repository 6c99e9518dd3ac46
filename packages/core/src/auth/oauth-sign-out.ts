import { buildDiscoveryUrls, selectClientAuthMethod } from '@modelcontextprotocol/client';
import type { AuthorizationServerMetadata, FetchLike, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import { authAudit } from './auth-audit.js';
import { describeCause } from './auth-errors.js';
import { httpsOnlyFetch, timedFetch } from './https-only-fetch.js';
import type { UserOAuthProvider } from './user-oauth-provider.js';

/** What signing out did at the authorization server (the local tokens are deleted in every case). */
export interface SignOutResult {
  /**
   * `revoked`: the server took the tokens back (RFC 7009); `not_offered`: it has no revocation endpoint;
   * `failed`: revocation failed (see `error`); `not_signed_in`: there was nothing to revoke.
   */
  readonly revocation: 'revoked' | 'not_offered' | 'failed' | 'not_signed_in';
  readonly error?: string;
}

/**
 * Signs the provider's user out of its server: revokes the refresh and access tokens when the authorization server
 * offers revocation (RFC 7009), then deletes the user's credentials for the server with an `auth.sign_out` audit
 * event. A failed revocation is reported in the result (and the event); the tokens are deleted all the same, since
 * the user asked to be signed out of this host.
 */
export async function signOut(
  provider: UserOAuthProvider,
  options: { readonly fetch?: FetchLike } = {},
): Promise<SignOutResult> {
  let result: SignOutResult;
  try {
    const stored = await provider.storedTokens();
    result =
      stored === undefined
        ? { revocation: 'not_signed_in' }
        : await revoke(provider, stored.tokens, httpsOnlyFetch(provider.serverId, timedFetch(options.fetch ?? fetch)));
  } catch (error) {
    // Tokens that cannot be opened (another key) cannot be revoked either; they are deleted all the same.
    result = { revocation: 'failed', error: describeCause(error) };
  }
  const audit = authAudit(provider, 'auth.sign_out', {
    revocation: result.revocation,
    ...(result.error === undefined ? {} : { error: result.error }),
  });
  const { userId, serverIdentity } = provider.tokensKey;
  await provider.options.store.write([{ kind: 'credential.delete', match: { userId, serverIdentity }, audit }]);
  return result;
}

async function revoke(
  provider: UserOAuthProvider,
  tokens: StoredOAuthTokens,
  fetchFn: FetchLike,
): Promise<SignOutResult> {
  const issuer = tokens.issuer;
  if (issuer === undefined) return { revocation: 'not_offered' };
  const metadata = await revocationMetadata(issuer, fetchFn);
  const endpoint = metadata?.revocation_endpoint;
  if (metadata === undefined || endpoint === undefined) return { revocation: 'not_offered' };
  const client = await provider.clientInformation({ issuer });
  if (client === undefined) return { revocation: 'failed', error: `no client registration with ${issuer}` };
  // The refresh token first: revoking it also ends the access tokens issued from it at most servers.
  const revocable: [string, string][] = [];
  if (tokens.refresh_token !== undefined) revocable.push([tokens.refresh_token, 'refresh_token']);
  revocable.push([tokens.access_token, 'access_token']);
  for (const [token, hint] of revocable) {
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    const params = new URLSearchParams({ token, token_type_hint: hint });
    await authenticate(provider, metadata, client, headers, params, endpoint);
    const response = await fetchFn(endpoint, { method: 'POST', headers, body: params });
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      return {
        revocation: 'failed',
        error: `HTTP ${response.status} from the revocation endpoint: ${text.slice(0, 200)}`,
      };
    }
  }
  return { revocation: 'revoked' };
}

/** What revocation needs of the authorization server's metadata. */
type RevocationMetadata = AuthorizationServerMetadata & {
  readonly revocation_endpoint?: string;
  readonly revocation_endpoint_auth_methods_supported?: string[];
};

/**
 * The issuer's metadata as published (RFC 8414, then OpenID discovery), read as it is: the SDK's parsed metadata
 * drops `revocation_endpoint` from an OpenID document. A document whose `issuer` is another server is ignored.
 */
async function revocationMetadata(issuer: string, fetchFn: FetchLike): Promise<RevocationMetadata | undefined> {
  for (const { url } of buildDiscoveryUrls(issuer)) {
    const response = await fetchFn(url, { headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      continue;
    }
    const document = (await response.json().catch(() => undefined)) as RevocationMetadata | undefined;
    if (document !== undefined && String(document.issuer).replace(/\/$/, '') === issuer.replace(/\/$/, '')) {
      return document;
    }
  }
  return undefined;
}

/** Client authentication for the revocation request, as for the token endpoint. */
async function authenticate(
  provider: UserOAuthProvider,
  metadata: RevocationMetadata,
  client: { client_id: string; client_secret?: string; token_endpoint_auth_method?: string },
  headers: Headers,
  params: URLSearchParams,
  endpoint: string,
): Promise<void> {
  if (provider.addClientAuthentication !== undefined) {
    await provider.addClientAuthentication(headers, params, endpoint, metadata);
    return;
  }
  const supported =
    metadata.revocation_endpoint_auth_methods_supported ?? metadata.token_endpoint_auth_methods_supported ?? [];
  const method = selectClientAuthMethod(client, supported);
  if (method === 'client_secret_basic' && client.client_secret !== undefined) {
    const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
    headers.set('authorization', `Basic ${Buffer.from(pair).toString('base64')}`);
    return;
  }
  params.set('client_id', client.client_id);
  if (method === 'client_secret_post' && client.client_secret !== undefined) {
    params.set('client_secret', client.client_secret);
  }
}

/** Whether the user is signed in to the server, and until when (never the tokens). */
export interface AuthStatus {
  readonly serverId: string;
  readonly signedIn: boolean;
  readonly issuer?: string;
  readonly scope?: string;
  /** When the access token expires by the host's clock; a refresh token may extend it. */
  readonly expiresAt?: number;
  readonly refreshable?: boolean;
  /** Why the stored tokens could not be read (another secret key), when so. */
  readonly error?: string;
}

/** The user's sign-in state for the provider's server, read from the store. */
export async function authStatus(provider: UserOAuthProvider): Promise<AuthStatus> {
  try {
    const stored = await provider.storedTokens();
    if (stored === undefined) return { serverId: provider.serverId, signedIn: false };
    const { issuer, scope, refresh_token } = stored.tokens;
    return {
      serverId: provider.serverId,
      signedIn: true,
      ...(issuer === undefined ? {} : { issuer }),
      ...(scope === undefined ? {} : { scope }),
      ...(stored.expiresAt === undefined ? {} : { expiresAt: stored.expiresAt }),
      refreshable: refresh_token !== undefined,
    };
  } catch (error) {
    if (!(error instanceof HostError) || error.code !== 'credential_unreadable') throw error;
    return { serverId: provider.serverId, signedIn: false, error: error.message };
  }
}
