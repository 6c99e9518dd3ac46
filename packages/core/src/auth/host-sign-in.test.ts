import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOOL,
  headlessAuthorize,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '../../../../test/support/oauth/index.js';
import type {
  AuthorizationServer,
  AuthorizationServerOptions,
  HeadlessUser,
  ProtectedMcpServer,
} from '../../../../test/support/oauth/index.js';
import { TokenVault } from './token-vault.js';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Scope } from '../scope.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { Surface } from '../host/surface.js';
import type { SignInRequest } from './sign-in-request.js';
import type { PermissionDecision } from '../permissions/permission-request.js';
import { nextEvent } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';

const ana: Scope = { userId: 'ana', workspaceId: 'team', conversationId: 'c1' };
const ben: Scope = { userId: 'ben', workspaceId: 'team', conversationId: 'c2' };

/** Allows every call; signs each user in headlessly as their own account at the authorization server. */
class SigningSurface implements Surface {
  readonly asked: SignInRequest[] = [];
  constructor(private readonly behaviour: (userId: string) => HeadlessUser = () => ({})) {}
  askPermission(): Promise<PermissionDecision> {
    return Promise.resolve('allow_once');
  }
  authorize(request: SignInRequest): Promise<URL> {
    this.asked.push(request);
    const user = { account: request.user.userId, ...this.behaviour(request.user.userId) };
    return headlessAuthorize(user)({ serverId: request.serverId, authorizationUrl: request.authorizationUrl });
  }
}

/** One key for every host of a test: hosts that share a store read each other's sealed tokens. */
const firstVault = TokenVault.fromKey(randomBytes(32));

let as: AuthorizationServer | undefined;
let mcp: ProtectedMcpServer | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  await mcp?.close();
  await as?.close();
  host = undefined;
  mcp = undefined;
  as = undefined;
});

async function world(
  surface: Surface = new SigningSurface(),
  options: { as?: AuthorizationServerOptions; oauth?: Record<string, unknown> } = {},
) {
  as = await startAuthorizationServer(options.as);
  mcp = await startProtectedMcpServer({ authorizationServer: as });
  const store = new MemoryStore();
  host = createHost({
    servers: { mcpServers: { notes: { url: mcp.url, oauth: options.oauth ?? {} } } },
    surface,
    store,
    clock: new FakeClock(),
    auth: { vault: firstVault, redirectUrl: 'http://127.0.0.1:53682/callback' },
    limits: { connectTimeoutMs: 10_000 },
  });
  await host.servers.settled();
  return { host, store };
}

const whoami = (h: Host, scope: Scope) =>
  h.invoke({ scope, caller: { kind: 'model' }, tool: 'notes__whoami', args: {} });

describe('signing users in to a remote server', () => {
  it('signs each user in as themselves: calls reach the server with their own token, never another user’s', async () => {
    const { host } = await world();
    // No one has signed in: the server's listing needs sign-in, and there are no tools yet.
    expect(host.servers.list()[0]).toMatchObject({ id: 'notes', isolation: 'user', state: 'needs_auth' });
    await host.auth.signIn({ scope: ana, serverId: 'notes' });
    expect(host.servers.list({ scope: ana })[0]).toMatchObject({ state: 'ready', tenantConnection: true });
    expect((await whoami(host, ana)).text).toMatch(/account "?ana"?/);
    // Ana's listing is her own view: Ben, who has not signed in, sees none of the server's tools.
    expect(host.tools.list({ audience: 'model', scope: ana }).map((t) => t.name)).toContain('notes__whoami');
    expect(host.tools.list({ audience: 'model', scope: ben }).map((t) => t.name)).not.toContain('notes__whoami');
    // Ben's call says what he must do (sign in), not that the tool is unknown.
    expect((await whoami(host, ben)).outcome).toBe('auth_required');
    // Her own tools are hers to explain and decide on; Ben's scope does not find them.
    expect(host.permissions.explain({ scope: ana, tool: 'notes__whoami' }).decision).toBeDefined();
    await host.permissions.decide({ scope: ana, tool: 'notes__whoami', decision: 'deny_always' });
    await host.permissions.revoke({ scope: ana, serverId: 'notes' });
    expect(() => host.permissions.explain({ scope: ben, tool: 'notes__whoami' })).toThrow(/unknown tool/);
    expect(host.servers.list({ scope: ben })[0]).toMatchObject({ state: 'needs_auth' });
    await host.auth.signIn({ scope: ben, serverId: 'notes' });
    expect((await whoami(host, ben)).text).toMatch(/account "?ben"?/);
    expect((await whoami(host, ana)).text).toMatch(/account "?ana"?/);
    const status = await host.auth.status({ scope: ben });
    expect(status).toEqual([expect.objectContaining({ serverId: 'notes', signedIn: true })]);
  });

  it('signs out: revokes at the server, forgets the tokens, and the next call asks for sign-in again', async () => {
    const { host } = await world();
    await host.auth.signIn({ scope: ana, serverId: 'notes' });
    expect((await whoami(host, ana)).outcome).toBe('success');
    const result = await host.auth.signOut({ scope: ana, serverId: 'notes' });
    expect(result.revocation).toBe('revoked');
    // Her view stays: the model may still call the tool, and is told she must sign in.
    expect(as!.log.revocation.length).toBeGreaterThan(0);
    expect(await host.auth.status({ scope: ana })).toEqual([
      expect.objectContaining({ serverId: 'notes', signedIn: false }),
    ]);
    expect((await whoami(host, ana)).outcome).toBe('auth_required');
  });

  it('stores nothing when the user gives up, and says which server and step', async () => {
    const { host } = await world(new SigningSurface(() => ({ giveUp: true })));
    await expect(host.auth.signIn({ scope: ana, serverId: 'notes' })).rejects.toMatchObject({
      code: 'auth_failed',
      message: expect.stringMatching(/notes/),
    });
    expect(await host.auth.status({ scope: ana })).toEqual([
      expect.objectContaining({ serverId: 'notes', signedIn: false }),
    ]);
  });

  it('audits sign-in and sign-out without a token value anywhere in the chain', async () => {
    const { host } = await world();
    const ready = nextEvent(host, 'server.state', (e) => e.tenant === 'user:ana' && e.state === 'ready');
    await host.auth.signIn({ scope: ana, serverId: 'notes' });
    await ready;
    await whoami(host, ana);
    await host.auth.signOut({ scope: ana, serverId: 'notes' });
    const events = await host.audit.query({ scope: ana });
    const types = events.map((e) => e.type);
    expect(types).toContain('auth.sign_in');
    expect(types).toContain('auth.sign_out');
    const chain = JSON.stringify(events);
    const tokens = mcp!.presented.filter((t): t is string => t !== undefined);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(chain).not.toContain(token);
    expect((await host.audit.verify()).ok).toBe(true);
  });

  it('steps up: a call the token lacks a scope for asks the user to consent to it, then runs once', async () => {
    const surface = new SigningSurface();
    const { host } = await world(surface);
    await host.auth.signIn({ scope: ana, serverId: 'notes' });
    expect(surface.asked).toHaveLength(1);
    const purge = await host.invoke({ scope: ana, caller: { kind: 'model' }, tool: `notes__${ADMIN_TOOL}`, args: {} });
    expect(purge.outcome).toBe('success');
    expect(purge.text).toContain('purged');
    expect(surface.asked).toHaveLength(2);
    expect(surface.asked[1]!.scope).toMatch(/tools:admin/);
    expect(surface.asked[1]!.user).toEqual(ana);
  });

  it('connects a machine server with client credentials as the host, shared by every user, with no sign-in', async () => {
    const secret = 'machine-secret-0123456789';
    const surface = new SigningSurface();
    const { host } = await world(surface, {
      as: {
        clients: [
          {
            client_id: 'machine',
            client_secret: secret,
            redirect_uris: [],
            response_types: [],
            grant_types: ['client_credentials'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
      },
      oauth: { grant: 'client_credentials', clientId: 'machine', clientSecret: secret, scopes: ['tools:read'] },
    });
    expect(host.servers.list()[0]).toMatchObject({ isolation: 'shared', state: 'ready', signsIn: false });
    expect((await whoami(host, ana)).text).toMatch(/account "?client machine"?/);
    expect((await whoami(host, ben)).text).toMatch(/account "?client machine"?/);
    expect(surface.asked).toEqual([]);
  });

  it('refreshes in a host with no redirect URL, with the client the tokens were issued to', async () => {
    const { host: first, store } = await world();
    await first.auth.signIn({ scope: ana, serverId: 'notes' });
    // Another host on the same store signs ben in from another redirect URL: a new client for the same issuer.
    const other = createHost({
      servers: { mcpServers: { notes: { url: mcp!.url, oauth: {} } } },
      surface: new SigningSurface(),
      store,
      clock: new FakeClock(),
      auth: { vault: firstVault, redirectUrl: 'http://127.0.0.1:53999/other-callback' },
    });
    await other.servers.settled();
    await other.auth.signIn({ scope: ben, serverId: 'notes' });
    // A third host, as a CLI run that is not a sign-in: no redirect URL; ana's access token is past its time.
    const clock = new FakeClock();
    const later = createHost({
      servers: { mcpServers: { notes: { url: mcp!.url, oauth: {} } } },
      surface: new SigningSurface(),
      store,
      clock,
      auth: { vault: firstVault },
    });
    const refreshes = () => as!.log.token.filter((t) => t.grant === 'refresh_token').length;
    const before = refreshes();
    clock.advance(2 * 60 * 60_000);
    await later.servers.settled();
    // Ana's own connection: it meets the 401 of a token past its time and refreshes it.
    await later.servers.restart('notes', { scope: ana });
    const result = await whoami(later, ana);
    // The hosts share one store: closing a host closes it, so they close once the test has read everything.
    await later.close();
    await other.close();
    expect(result.outcome).toBe('success');
    expect(result.text).toMatch(/account "?ana"?/);
    expect(refreshes()).toBe(before + 1);
  });

  it("resumes a signed-in user's own connection in a host started later, and leaves others signed out", async () => {
    const { host: first, store } = await world();
    await first.auth.signIn({ scope: ana, serverId: 'notes' });
    const later = createHost({
      servers: { mcpServers: { notes: { url: mcp!.url, oauth: {} } } },
      surface: new SigningSurface(),
      store,
      clock: new FakeClock(),
      auth: { vault: firstVault },
    });
    await later.servers.settled();
    expect(later.tools.list({ audience: 'model', scope: ana }).map((t) => t.name)).not.toContain('notes__whoami');
    await later.auth.resume({ scope: ana });
    await later.auth.resume({ scope: ben });
    expect(later.servers.list({ scope: ana })[0]).toMatchObject({ state: 'ready', tenantConnection: true });
    expect(later.servers.list({ scope: ben })[0]).toMatchObject({ tenantConnection: false });
    const result = await whoami(later, ana);
    // The hosts share one store: closing a host closes it, so the later one closes first.
    await later.close();
    expect(result.text).toMatch(/account "?ana"?/);
  });

  it('refuses to sign in to a server that does not sign users in, naming it', async () => {
    const { host } = await world();
    await expect(host.auth.signIn({ scope: ana, serverId: 'nope' })).rejects.toThrow(/no server "nope"/);
  });
});
