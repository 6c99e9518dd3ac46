import { randomBytes } from 'node:crypto';
import { createPrivateKeyJwtAuth, validateClientMetadataUrl } from '@modelcontextprotocol/client';
import type {
  AddClientAuthentication,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { AuditEventInput } from '../store/audit-record.js';
import { systemClock } from '../clock.js';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import { credentialKeyText } from '../store/credentials.js';
import type { CredentialKey } from '../store/credentials.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import { authAudit } from './auth-audit.js';
import { authRequired } from './auth-errors.js';
import type { Authorize, OAuthClientConfig } from './oauth-client-config.js';
import { RefreshGate } from './refresh-gate.js';
import { flows } from './sign-in-flow.js';
import { clientKey, sameIssuer } from './issuer-key.js';
import type { SignInFlow } from './sign-in-flow.js';
import type { SealedTokens } from './sealed-tokens.js';
import type { TokenVault } from './token-vault.js';

/** The redirect of a provider given none (signIn refuses to start without a real one). */
const NO_REDIRECT = 'http://127.0.0.1/airlock-no-sign-in-here';

/** How to build the OAuth client of one user for one server. */
export interface UserOAuthProviderOptions {
  /** The configured server's id (named in errors, audit events and the surface's prompt). */
  readonly serverId: string;
  /** The MCP server's URL: the protected resource. */
  readonly serverUrl: string | URL;
  /** The server's identity (`serverIdentity(config)`): with the user, the key of the stored tokens. */
  readonly serverIdentity: string;
  /** The user the tokens belong to. A machine server (client credentials) shared by all users names a fixed id. */
  readonly userId: string;
  /** The workspace audit events are filed under (default ''). */
  readonly workspaceId?: string;
  readonly store: HostStore;
  readonly vault: TokenVault;
  readonly clock?: Clock;
  /** Where the authorization server sends the user back (the console's callback, the CLI's loopback). */
  readonly redirectUrl?: string | URL;
  /** The https URL of the host's Client ID Metadata Document, used when the authorization server supports them. */
  readonly clientMetadataUrl?: string;
  /** The client name a registration shows the user (default 'Airlock'). */
  readonly clientName?: string;
  readonly oauth?: OAuthClientConfig;
  /** Shows the authorization page to the user (`Surface.authorize`); needed by `signIn` for a user's sign-in. */
  readonly authorize?: Authorize;
}

/**
 * The SDK's `OAuthClientProvider` for one (user, server) pair: tokens and client registrations live in the HostStore,
 * sealed by the token vault; PKCE verifier, state and discovery stay in memory for the sign-in under way. Pass it as
 * the `authProvider` of the server's `StreamableHTTPClientTransport`: the transport sends its bearer token, and on a
 * 401 refreshes it (the SDK's `auth()`); when refreshing cannot help, the call fails with `auth_required` (this
 * provider never opens a browser on its own: `signIn` does, when the user asks).
 */
export class UserOAuthProvider implements OAuthClientProvider {
  readonly serverId: string;
  readonly serverUrl: URL;
  readonly userId: string;
  readonly clientMetadataUrl?: string;
  readonly options: UserOAuthProviderOptions;
  readonly clock: Clock;
  #codeVerifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** A client identity learned outside a sign-in (pre-registered, metadata document): kept for this process. */
  #client: StoredOAuthClientInformation | undefined;
  /** The issuer of the last authorization server the SDK resolved for this server. */
  #issuer: string | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;
  readonly #refreshing: RefreshGate;

  constructor(options: UserOAuthProviderOptions) {
    this.options = options;
    this.serverId = options.serverId;
    this.userId = options.userId;
    this.clock = options.clock ?? systemClock;
    this.#refreshing = new RefreshGate(this.clock);
    try {
      this.serverUrl = new URL(options.serverUrl);
      validateClientMetadataUrl(options.clientMetadataUrl);
    } catch (error) {
      throw new HostError('config_invalid', `server ${options.serverId}: ${(error as Error).message}`, {
        data: { serverId: options.serverId },
      });
    }
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
    const oauth = options.oauth ?? {};
    if (oauth.privateKey !== undefined) {
      if (oauth.clientId === undefined) {
        throw new HostError('config_invalid', `server ${options.serverId}: a private key needs its clientId`);
      }
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: oauth.clientId,
        subject: oauth.clientId,
        privateKey: oauth.privateKey,
        alg: oauth.privateKeyAlgorithm ?? 'RS256',
      });
    }
  }

  /** True for a machine server: tokens come from the client's own credentials, with no user and no browser. */
  get machine(): boolean {
    return this.options.oauth?.grant === 'client_credentials';
  }

  /** Where users come back; without one (not a sign-in) a stand-in, or the SDK would not refresh (it never uses it). */
  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    return this.options.redirectUrl === undefined ? NO_REDIRECT : String(this.options.redirectUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.oauth?.scopes?.join(' ');
    const common = { client_name: this.options.clientName ?? 'Airlock', ...(scope ? { scope } : {}) };
    if (this.machine) {
      const method = this.addClientAuthentication === undefined ? 'client_secret_basic' : 'private_key_jwt';
      return { ...common, redirect_uris: [], grant_types: ['client_credentials'], token_endpoint_auth_method: method };
    }
    return {
      ...common,
      redirect_uris: this.redirectUrl === undefined ? [] : [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** The key of this user's tokens for this server. The issuer stays inside the sealed value (the SDK's stamp). */
  get tokensKey(): CredentialKey {
    return { kind: 'tokens', userId: this.userId, serverIdentity: this.options.serverIdentity, issuer: '' };
  }

  /** A new sign-in: registrations and tokens it gets are held back and stored together by `endFlow`. */
  beginFlow(interactive: boolean): SignInFlow {
    return { owner: this, step: 'discovery', interactive };
  }

  /** Runs `run` (the SDK's `auth()` calls of one sign-in) with `flow` as the sign-in its provider calls belong to. */
  inFlow<T>(flow: SignInFlow, run: () => Promise<T>): Promise<T> {
    return flows.run(flow, run);
  }

  /** The sign-in of this provider the current call chain runs in, if any. */
  get #flow(): SignInFlow | undefined {
    const flow = flows.getStore();
    return flow?.owner === this ? flow : undefined;
  }

  /** Ends the sign-in: its writes (client, tokens, the audit event) in one batch, or nothing when it failed. */
  async endFlow(flow: SignInFlow, audit: AuditEventInput | undefined): Promise<void> {
    delete flow.codeVerifier;
    if (audit === undefined || flow.tokens === undefined) return;
    const writes: StoreWrite[] = [];
    if (flow.newClient !== undefined && flow.clientIdentity === 'dynamic' && flow.newClient.issuer !== undefined) {
      writes.push(this.#put(clientKey(flow.newClient.issuer), flow.newClient));
    }
    const client = flow.newClient ?? flow.client;
    writes.push({
      ...this.#put(this.tokensKey, { ...flow.tokens, ...(client === undefined ? {} : { client }) }),
      audit,
    });
    await this.options.store.write(writes);
  }

  state(): string {
    const state = randomBytes(24).toString('base64url');
    if (this.#flow !== undefined) this.#flow.state = state;
    return state;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    if (ctx !== undefined) this.#issuer = ctx.issuer;
    const flow = this.#flow;
    if (flow === undefined && !this.machine && (await this.options.store.getCredential(this.tokensKey)) === undefined) {
      // A connection of a user who never signed in: say so before the SDK registers a client it cannot use.
      throw authRequired(this.serverId, 'the user has not signed in');
    }
    // Outside a sign-in (a refresh, a revocation): the client the tokens were issued to.
    const own = flow === undefined && !this.machine ? (await this.storedTokens())?.client : undefined;
    const found = own ?? (await this.#clientInformation(ctx));
    if (flow !== undefined && found !== undefined) flow.client = found;
    if (flow !== undefined) {
      flow.step =
        found === undefined ? 'registration' : flow.authorizationUrl === undefined ? 'authorization' : 'token';
    }
    return found;
  }

  async #clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const oauth = this.options.oauth ?? {};
    if (oauth.clientId !== undefined) {
      const info: StoredOAuthClientInformation = {
        client_id: oauth.clientId,
        ...(oauth.clientSecret === undefined ? {} : { client_secret: oauth.clientSecret }),
        ...(oauth.tokenEndpointAuthMethod === undefined
          ? {}
          : { token_endpoint_auth_method: oauth.tokenEndpointAuthMethod }),
      };
      if (this.#flow !== undefined) this.#flow.clientIdentity = 'pre-registered';
      const issuer = oauth.issuer ?? this.#client?.issuer;
      return issuer === undefined ? info : { ...info, issuer };
    }
    const pending = this.#flow?.newClient ?? this.#client;
    if (
      pending !== undefined &&
      (ctx === undefined || pending.issuer === undefined || sameIssuer(pending.issuer, ctx.issuer))
    ) {
      return pending;
    }
    if (ctx === undefined) return undefined;
    const stored = await this.#open<StoredOAuthClientInformation>(clientKey(ctx.issuer));
    // A registration made for another redirect URL (the CLI's, say, where this is the console) cannot be used here.
    const redirect = this.redirectUrl;
    const uris = (stored as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (stored !== undefined && redirect !== undefined && Array.isArray(uris) && !uris.includes(redirect)) {
      return undefined;
    }
    if (stored !== undefined && this.#flow !== undefined) this.#flow.clientIdentity = 'dynamic';
    return stored;
  }

  /** Keeps a client the SDK registered: with the sign-in's other writes, or for this process when pre-registered. */
  saveClientInformation(info: StoredOAuthClientInformation): void {
    const flow = this.#flow;
    if (this.options.oauth?.clientId !== undefined || info.client_id === this.clientMetadataUrl) {
      // A pre-registered client or a metadata document URL: nothing to keep beyond the issuer stamp.
      this.#client = info;
      if (flow !== undefined && this.options.oauth?.clientId === undefined) flow.clientIdentity = 'metadata-document';
      return;
    }
    if (flow === undefined) return; // Registered while only checking for a token: the sign-in will register again.
    flow.newClient = info;
    flow.clientIdentity = 'dynamic';
    flow.step = flow.authorizationUrl === undefined ? 'authorization' : 'token';
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const flow = this.#flow;
    if (flow?.tokens !== undefined) return flow.tokens.tokens;
    // auth() outside a sign-in reads the tokens to refresh them: one refresh at a time (see RefreshGate).
    if (ctx !== undefined && flow === undefined) await this.#refreshing.enter();
    const sealed = await this.#open<SealedTokens>(this.tokensKey);
    if (sealed === undefined) return undefined;
    // The per-request read (no ctx): an access token past its time by the host's clock is not sent, so the server's
    // 401 leads the transport to refresh it. With ctx (auth() itself), the refresh token is what counts.
    if (ctx === undefined && sealed.expiresAt !== undefined && this.clock.now() >= sealed.expiresAt) return undefined;
    return sealed.tokens;
  }

  /** The stored tokens with their expiry, for status and sign-out (undefined when the user is not signed in). */
  storedTokens(): Promise<SealedTokens | undefined> {
    return this.#open<SealedTokens>(this.tokensKey);
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = this.clock.now();
    const sealed: SealedTokens = {
      tokens,
      savedAt: now,
      ...(typeof tokens.expires_in === 'number' ? { expiresAt: now + tokens.expires_in * 1000 } : {}),
    };
    const flow = this.#flow;
    if (flow !== undefined) {
      flow.tokens = sealed;
      return;
    }
    // A refresh (or a machine's new token) outside a sign-in: stored at once, with the client it was issued to,
    // audited only for a machine.
    const audit = this.machine
      ? authAudit(this, 'auth.sign_in', {
          issuer: tokens.issuer ?? null,
          grant: 'client_credentials',
          scope: tokens.scope ?? null,
        })
      : undefined;
    try {
      const client = this.machine ? undefined : (await this.storedTokens().catch(() => undefined))?.client;
      const kept = client === undefined ? sealed : { ...sealed, client };
      await this.options.store.write([
        { ...this.#put(this.tokensKey, kept), ...(audit === undefined ? {} : { audit }) },
      ]);
    } finally {
      this.#refreshing.leave();
    }
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const flow = this.#flow;
    if (flow === undefined || !flow.interactive) {
      // Outside a sign-in the SDK gets here when there is no token, or when refreshing failed: stale tokens are
      // dropped (with the refresh_failed event), and the call fails asking the user to sign in.
      this.#refreshing.leave();
      const stored = await this.storedTokens().catch(() => undefined);
      if (stored?.tokens.refresh_token !== undefined) {
        const audit = authAudit(this, 'auth.refresh_failed', {
          step: 'refresh',
          reason: 'refreshing the tokens did not succeed',
        });
        await this.options.store.write([{ kind: 'credential.delete', key: this.tokensKey, audit }]);
      }
      throw authRequired(this.serverId, 'no valid token, and refreshing cannot get one: the user must sign in');
    }
    flow.authorizationUrl = authorizationUrl;
    flow.step = 'authorization';
  }

  saveCodeVerifier(codeVerifier: string): void {
    const flow = this.#flow;
    if (flow !== undefined) flow.codeVerifier = codeVerifier;
    else this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    const verifier = this.#flow === undefined ? this.#codeVerifier : this.#flow.codeVerifier;
    if (verifier === undefined) {
      throw new HostError('auth_failed', `sign-in to ${this.serverId} has no PKCE verifier: no sign-in is under way`, {
        data: { serverId: this.serverId, step: 'token' },
      });
    }
    return verifier;
  }

  /** A machine server's token request (client credentials); undefined for a user, so the SDK uses its default. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.machine) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  /** Keeps what the SDK discovered of the server's authorization server, for this process. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /** What `saveDiscoveryState` kept, so the SDK does not discover the authorization server again. */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /** Forgets what the server says is no longer valid. Tokens the server refused: deleted, audited as a failed refresh. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') {
      this.#codeVerifier = undefined;
      if (this.#flow !== undefined) delete this.#flow.codeVerifier;
    }
    if (scope === 'discovery' || scope === 'all') this.#discovery = undefined;
    const flow = this.#flow;
    if (flow !== undefined) {
      // Inside a sign-in only what the sign-in learned is dropped: a failed sign-in changes nothing stored.
      if (scope === 'client' || scope === 'all') delete flow.newClient;
      if (scope === 'tokens' || scope === 'all') delete flow.tokens;
      return;
    }
    if (scope === 'client' || scope === 'all') {
      const issuer = this.#client?.issuer ?? this.#issuer;
      this.#client = undefined;
      if (issuer !== undefined && this.options.oauth?.clientId === undefined) {
        await this.options.store.write([{ kind: 'credential.delete', match: { kind: 'client', issuer } }]);
      }
    }
    if (scope === 'tokens' || scope === 'all') {
      this.#refreshing.leave();
      const stored = await this.options.store.getCredential(this.tokensKey);
      if (stored === undefined) return;
      const audit = authAudit(this, 'auth.refresh_failed', {
        step: 'refresh',
        reason: 'the authorization server refused the stored tokens',
      });
      await this.options.store.write([{ kind: 'credential.delete', key: this.tokensKey, audit }]);
    }
  }

  #put(key: CredentialKey, value: unknown): Extract<StoreWrite, { kind: 'credential.put' }> {
    const sealed = this.options.vault.seal(value, credentialKeyText(key));
    return { kind: 'credential.put', key, sealed, updatedAt: this.clock.now() };
  }

  /**
   * The stored value of `key`, opened. One that cannot be opened (another secret key, altered) is a clear error,
   * except inside a sign-in: signing in again is how the user replaces it, so there it counts as absent.
   */
  async #open<T>(key: CredentialKey): Promise<T | undefined> {
    const record = await this.options.store.getCredential(key);
    if (record === undefined) return undefined;
    try {
      return this.options.vault.open(record.sealed, credentialKeyText(key)) as T;
    } catch (error) {
      if (this.#flow !== undefined && error instanceof HostError && error.code === 'credential_unreadable') {
        return undefined;
      }
      throw error;
    }
  }
}
