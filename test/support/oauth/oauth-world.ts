// The pieces an OAuth test of core's auth/ needs, opened together: a real authorization server, a protected MCP
// server, a store, a vault, a fake clock, and providers for users of the server. It takes core's classes from its
// sources, so the tests exercise the code under test rather than a build of it.
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { httpsOnlyFetch } from '../../../packages/core/src/auth/https-only-fetch.js';
import { TokenVault } from '../../../packages/core/src/auth/token-vault.js';
import { UserOAuthProvider } from '../../../packages/core/src/auth/user-oauth-provider.js';
import type { UserOAuthProviderOptions } from '../../../packages/core/src/auth/user-oauth-provider.js';
import { MemoryStore } from '../../../packages/core/src/storage/memory/memory-store.js';
import { FakeClock } from '../../../packages/core/src/testing/fake-clock.js';
import { startAuthorizationServer } from './authorization-server.js';
import type { AuthorizationServer, AuthorizationServerOptions } from './authorization-server.js';
import { headlessAuthorize } from './headless-authorize.js';
import type { HeadlessUser } from './headless-authorize.js';
import { startProtectedMcpServer } from './protected-mcp-server.js';
import type { ProtectedMcpServer, ProtectedMcpServerOptions } from './protected-mcp-server.js';

/** The host's redirect URL in the tests (never opened: the headless user hands the redirect back). */
export const REDIRECT = 'http://127.0.0.1:53682/callback';

/** A real authorization server, a protected MCP server, a store and a vault, opened per test. */
export class OAuthWorld {
  readonly clock = new FakeClock();
  readonly store = new MemoryStore();
  readonly vault = TokenVault.fromKey(randomBytes(32));
  readonly clients: Client[] = [];
  constructor(
    readonly as: AuthorizationServer,
    readonly mcp: ProtectedMcpServer,
  ) {}

  static async open(
    options: AuthorizationServerOptions = {},
    server: Omit<ProtectedMcpServerOptions, 'authorizationServer'> = {},
  ): Promise<OAuthWorld> {
    const as = await startAuthorizationServer(options);
    return new OAuthWorld(as, await startProtectedMcpServer({ ...server, authorizationServer: as }));
  }

  /** The provider of `userId` for the protected server, signing in as the same account at the authorization server. */
  provider(userId: string, user: HeadlessUser = {}, more: Partial<UserOAuthProviderOptions> = {}): UserOAuthProvider {
    return new UserOAuthProvider({
      serverId: 'notes',
      serverUrl: this.mcp.url,
      serverIdentity: 'identity-of-notes',
      userId,
      store: this.store,
      vault: this.vault,
      clock: this.clock,
      redirectUrl: REDIRECT,
      authorize: headlessAuthorize({ account: userId, ...user }),
      ...more,
    });
  }

  /** A client connected through the provider, as the per-user connection is. */
  async connect(provider: UserOAuthProvider): Promise<Client> {
    const client = new Client({ name: 'airlock-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(this.mcp.url), {
      authProvider: provider,
      fetch: httpsOnlyFetch(provider.serverId),
      onInsufficientScope: 'throw',
    });
    await client.connect(transport);
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
    await this.mcp.close();
    await this.as.close();
    await this.store.close();
  }
}

/** The text of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}
