import { randomBytes } from 'node:crypto';
import type { FetchLike } from '@modelcontextprotocol/client';
import { httpsOnlyFetch } from './https-only-fetch.js';
import { signIn } from './oauth-sign-in.js';
import { DEFAULT_MAX_STEP_UPS, insufficientScopeChallenge, stepUp } from './oauth-step-up.js';
import type { SignInResult } from './oauth-sign-in.js';
import { authStatus, signOut } from './oauth-sign-out.js';
import type { AuthStatus, SignOutResult } from './oauth-sign-out.js';
import { SECRET_KEY_ENV, TokenVault } from './token-vault.js';
import { UserOAuthProvider } from './user-oauth-provider.js';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { HostServers } from '../servers/host-servers.js';
import type { Scope } from '../scope.js';
import type { HttpServerConfig, ServerConfig } from '../servers/server-config.js';
import type { ServerConnectionOptions } from '../servers/server-connection-options.js';
import type { ServerPool } from '../servers/server-pool.js';
import type { HostStore } from '../store/host-store.js';
import type { SignInAsker } from './sign-in-request.js';

/** How the host signs users in to remote servers. */
export interface HostAuthConfig {
  /**
   * Seals tokens at rest. Default: a vault over `AIRLOCK_SECRET_KEY`; without it, a key made for this process, so
   * tokens last until the host stops (the console and the CLI keep a key file beside their store instead).
   */
  readonly vault?: TokenVault;
  /**
   * Where authorization servers send the user back: the console's callback route, the CLI's loopback. A function is
   * asked at each sign-in (a console learns its port once it listens).
   */
  readonly redirectUrl?: string | (() => string | undefined);
  /** The https URL of the host's Client ID Metadata Document, offered where the authorization server takes one. */
  readonly clientMetadataUrl?: string;
  readonly clientName?: string;
  /** The fetch OAuth requests go through (tests; default the global fetch). */
  readonly fetch?: FetchLike;
}

/** Sign-in to remote servers: each user's own, through the surface's `authorize`. Tokens are never shown. */
/** The id tokens of a machine server (client credentials, shared by all) are kept under: the host's own. */
const HOST_USER = '';

/**
 * Sign-in to remote servers for the host: each user's OAuth client per server (the `authProvider` of that user's
 * connection), and the user's sign-in, sign-out and status, through the surface's `authorize`. Another tenant never
 * uses or sees a user's tokens: the tokens are keyed by user and server identity, and a user's connection carries
 * only that user's client.
 */
export class HostAuth {
  readonly #store: HostStore;
  readonly #clock: Clock;
  readonly #surface: SignInAsker | undefined;
  readonly #config: HostAuthConfig;
  readonly #vault: TokenVault;
  /** Per server and user, the client a connection uses (it reads the stored tokens at each request). */
  readonly #providers = new Map<string, UserOAuthProvider>();
  /** Step-up sign-ins so far, per server, user and scope set asked for. */
  readonly #stepUps = new Map<string, number>();
  #servers: HostServers | undefined;

  constructor(options: { store: HostStore; clock: Clock; surface: SignInAsker | undefined; config?: HostAuthConfig }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#surface = options.surface;
    this.#config = options.config ?? {};
    const fromEnv = process.env[SECRET_KEY_ENV];
    this.#vault =
      this.#config.vault ??
      (fromEnv === undefined ? TokenVault.fromKey(randomBytes(32)) : TokenVault.fromKey(fromEnv, SECRET_KEY_ENV));
  }

  /** The servers to sign in to (set once the host has built them). */
  attach(servers: HostServers): void {
    this.#servers = servers;
  }

  /**
   * What an HTTP connection is built with: the OAuth client of its user on a server users sign in to (per user), or
   * the host's own on a server with client credentials; nothing for a connection no one signs in to.
   */
  connectionOptions(config: ServerConfig, tenant: string | undefined): Partial<ServerConnectionOptions> {
    if (config.transport !== 'http') return {};
    const guarded = httpsOnlyFetch(config.id, this.#config.fetch ?? fetch);
    if (config.oauth?.grant === 'client_credentials') {
      return { authProvider: this.#provider(config, HOST_USER), fetch: guarded };
    }
    const pool = this.#servers?.pools.get(config.id);
    if (pool === undefined || !signsIn(pool) || tenant === undefined || !tenant.startsWith('user:')) return {};
    const userId = tenant.slice('user:'.length);
    return {
      authProvider: this.#provider(config, userId),
      fetch: guarded,
      onInsufficientScope: (error, call) => this.#stepUp(config, userId, error, call.scope, call.signal),
    };
  }

  /**
   * A call refused with 403 `insufficient_scope`: the user is asked (through the surface, in the call's conversation)
   * to consent to the scopes the server asks for, at most `DEFAULT_MAX_STEP_UPS` times per scope set; true when they
   * did, so the call is sent once more.
   */
  async #stepUp(
    config: HttpServerConfig & ServerConfig,
    userId: string,
    error: unknown,
    scope: Scope | undefined,
    signal: AbortSignal,
  ): Promise<boolean> {
    const challenge = insufficientScopeChallenge(error);
    const surface = this.#surface;
    if (challenge === undefined || scope === undefined || surface?.authorize === undefined) return false;
    const key = `${config.id}\u0000${userId}\u0000${challenge.scope ?? ''}`;
    const done = this.#stepUps.get(key) ?? 0;
    if (done >= DEFAULT_MAX_STEP_UPS) return false;
    this.#stepUps.set(key, done + 1);
    const provider = this.#flowProvider(config, userId, {
      workspaceId: scope.workspaceId,
      authorize: (request, flowSignal) => surface.authorize!({ ...request, user: scope }, flowSignal ?? signal),
    });
    await stepUp(provider, challenge, {
      signal,
      ...(this.#config.fetch === undefined ? {} : { fetch: this.#config.fetch }),
    });
    return true;
  }

  /**
   * Signs the scope's user in to a server through the surface (`authorize`), stores the tokens sealed, and connects
   * the user's own connection afresh with them. Rejects with `auth_failed` naming the server and the step.
   */
  async signIn(scope: Scope, serverId: string, signal?: AbortSignal): Promise<SignInResult> {
    const { pool, config } = this.#signInServer(serverId);
    const surface = this.#surface;
    const provider = this.#flowProvider(config, this.#userOf(pool, scope), {
      workspaceId: scope.workspaceId,
      ...(surface?.authorize === undefined
        ? {}
        : {
            authorize: (request, flowSignal) =>
              surface.authorize!({ ...request, user: scope }, flowSignal ?? signal ?? new AbortController().signal),
          }),
    });
    const result = await signIn(provider, {
      ...(signal === undefined ? {} : { signal }),
      ...(this.#config.fetch === undefined ? {} : { fetch: this.#config.fetch }),
    });
    await pool.restart(pool.isolation === 'shared' ? undefined : scope);
    return result;
  }

  /** Signs the user out of a server: revokes where the server offers it, deletes the tokens, closes their connection. */
  async signOut(scope: Scope, serverId: string): Promise<SignOutResult> {
    const { pool, config } = this.#signInServer(serverId);
    const result = await signOut(
      this.#flowProvider(config, this.#userOf(pool, scope), { workspaceId: scope.workspaceId }),
      {
        ...(this.#config.fetch === undefined ? {} : { fetch: this.#config.fetch }),
      },
    );
    if (pool.isolation === 'shared') await pool.restart();
    else await pool.closeTenant(scope);
    return result;
  }

  /**
   * Opens the user's own connection to each server they are signed in to (stored tokens) that has none open, so
   * their tools are listed again after a restart of the host (a tab opening, a CLI run). Servers the user is not
   * signed in to are left alone: they stay as "needs sign-in".
   */
  async resume(scope: Scope): Promise<void> {
    const opening: Promise<void>[] = [];
    for (const pool of this.#servers?.pools.values() ?? []) {
      const config = pool.config;
      if (!signsIn(pool) || config.transport !== 'http' || pool.isolation === 'shared') continue;
      if (pool.peek(scope) !== undefined) continue;
      const status = await authStatus(this.#flowProvider(config, this.#userOf(pool, scope)));
      if (status.signedIn) opening.push(pool.restart(scope));
    }
    await Promise.all(opening);
  }

  /** The user's sign-in state on every server users sign in to (never the tokens). */
  async status(scope: Scope): Promise<AuthStatus[]> {
    const out: AuthStatus[] = [];
    for (const pool of this.#servers?.pools.values() ?? []) {
      const config = pool.config;
      if (!signsIn(pool) || config.transport !== 'http') continue;
      out.push(await authStatus(this.#flowProvider(config, this.#userOf(pool, scope))));
    }
    return out;
  }

  #signInServer(serverId: string): { pool: ServerPool; config: HttpServerConfig & ServerConfig } {
    const pool = this.#servers?.pool(serverId);
    if (pool === undefined) throw new HostError('server_not_found', `no server "${serverId}" is configured`);
    if (!signsIn(pool) || pool.config.transport !== 'http') {
      throw new HostError(
        'invalid_arguments',
        `server "${serverId}" does not sign users in (it is not an HTTP server with oauth, nor one that asked for it)`,
        { data: { serverId } },
      );
    }
    return { pool, config: pool.config };
  }

  #userOf(pool: ServerPool, scope: Scope): string {
    return pool.config.oauth?.grant === 'client_credentials' ? HOST_USER : scope.userId;
  }

  #provider(config: HttpServerConfig & ServerConfig, userId: string): UserOAuthProvider {
    const key = `${config.id}\u0000${userId}`;
    let provider = this.#providers.get(key);
    if (provider === undefined) this.#providers.set(key, (provider = this.#flowProvider(config, userId)));
    return provider;
  }

  /** A client for one operation (sign-in, sign-out, status); its state of a flow never outlives the operation. */
  #flowProvider(
    config: HttpServerConfig & ServerConfig,
    userId: string,
    extra: { authorize?: UserOAuthProvider['options']['authorize']; workspaceId?: string } = {},
  ): UserOAuthProvider {
    const { clientMetadataUrl, clientName } = this.#config;
    const configured = this.#config.redirectUrl;
    const redirectUrl = typeof configured === 'function' ? configured() : configured;
    return new UserOAuthProvider({
      serverId: config.id,
      serverUrl: config.url,
      serverIdentity: this.#servers?.pool(config.id).catalog.identity ?? config.id,
      userId,
      store: this.#store,
      vault: this.#vault,
      clock: this.#clock,
      ...(redirectUrl === undefined ? {} : { redirectUrl }),
      ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl }),
      ...(clientName === undefined ? {} : { clientName }),
      ...(config.oauth === undefined ? {} : { oauth: config.oauth }),
      ...extra,
    });
  }
}

/** True for a server users (or the host) sign in to: configured with oauth, or one that asked for sign-in. */
function signsIn(pool: ServerPool): boolean {
  return pool.config.transport === 'http' && (pool.config.oauth !== undefined || pool.isolation === 'user');
}
