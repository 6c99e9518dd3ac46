import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOOL,
  OAuthWorld,
  resultText as text,
  startProtectedMcpServer,
} from '../../../../test/support/oauth/index.js';
import type { HeadlessAuthorize } from '../../../../test/support/oauth/index.js';
import { isAuthRequired } from './auth-errors.js';
import { signIn } from './oauth-sign-in.js';
import { authStatus, signOut } from './oauth-sign-out.js';
import { insufficientScopeChallenge, stepUp } from './oauth-step-up.js';

describe('OAuth sign-in against a real authorization server', () => {
  let world: OAuthWorld;
  beforeEach(async () => {
    world = await OAuthWorld.open();
  });
  afterEach(async () => {
    await world.close();
  });

  it('signs a user in (discovery, dynamic registration, PKCE, resource), then calls a tool with the token', async () => {
    const provider = world.provider('alice');
    const result = await signIn(provider);

    expect(result).toMatchObject({ serverId: 'notes', issuer: world.as.issuer, clientIdentity: 'dynamic' });
    expect(result.scope?.split(' ')).toEqual(expect.arrayContaining(['tools:read']));
    const asked = (provider.options.authorize as HeadlessAuthorize).requests[0]?.scope?.split(' ');
    expect(asked, 'the challenge scope, with offline_access as the server supports it').toEqual([
      'tools:read',
      'offline_access',
    ]);
    expect(world.as.log.registration).toBe(1);
    expect(world.as.log.token).toEqual([{ grant: 'authorization_code', resource: world.mcp.url }]);
    const client = await world.connect(provider);
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');

    const stored = await world.store.listCredentials({});
    expect(stored.map((r) => r.key.kind).sort()).toEqual(['client', 'tokens']);
    const token = (await provider.tokens())!.access_token;
    for (const record of stored) expect(record.sealed).not.toContain(token);
    const [event] = await world.store.queryAudit({ type: 'auth.sign_in' });
    expect(event).toMatchObject({ userId: 'alice', serverId: 'notes', data: { issuer: world.as.issuer } });
    expect(JSON.stringify(await world.store.queryAudit({}))).not.toContain(token);
    expect(await authStatus(provider)).toMatchObject({ signedIn: true, refreshable: true });
  });

  it('fails a call with auth_required, not silently, when the user has not signed in', async () => {
    const provider = world.provider('alice');
    const error: unknown = await world.connect(provider).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAuthRequired(error), String(error)).toBe(true);
    expect(String(error)).toMatch(/notes needs sign-in/);
    expect(await world.store.listCredentials({})).toEqual([]);
    expect(world.as.log.registration, 'no client registered for a user who is not signed in').toBe(0);
    expect(await authStatus(provider)).toEqual({ serverId: 'notes', signedIn: false });
  });

  it('keeps a sign-in apart from a call on the same provider that fails for want of one at the same time', async () => {
    const provider = world.provider('alice');
    const [connecting, signingIn] = await Promise.allSettled([world.connect(provider), signIn(provider)]);

    expect(signingIn.status, String((signingIn as PromiseRejectedResult).reason)).toBe('fulfilled');
    if (connecting.status === 'rejected') expect(isAuthRequired(connecting.reason)).toBe(true);
    const client = await world.connect(provider);
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
  });

  it('refreshes the access token once it expires by the host clock, and the call goes on', async () => {
    const provider = world.provider('alice');
    const { expiresAt } = await signIn(provider);
    const client = await world.connect(provider);
    const before = (await provider.tokens())!.access_token;

    world.clock.advance(expiresAt! - world.clock.now() + 1);
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');

    expect(world.as.log.token.map((t) => t.grant)).toEqual(['authorization_code', 'refresh_token']);
    const after = (await provider.tokens())!.access_token;
    expect(after).not.toBe(before);
    expect(world.mcp.presented.at(-1)).toBe(after);
  });

  it('refreshes when the server no longer takes the token (revoked or expired at the authorization server)', async () => {
    const provider = world.provider('alice');
    await signIn(provider);
    const client = await world.connect(provider);
    const before = (await provider.tokens())!.access_token;
    await (await world.as.provider.AccessToken.find(before))!.destroy();

    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
    // The call and the stream beside it may both meet the 401: they refresh one after the other (never twice with
    // one rotating refresh token, which the server would take for a replay and answer by revoking the grant).
    const [first, ...refreshes] = world.as.log.token.map((t) => t.grant);
    expect(first).toBe('authorization_code');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(refreshes)).toEqual(new Set(['refresh_token']));
    expect((await provider.tokens())!.access_token).not.toBe(before);
    expect(await world.store.queryAudit({ type: 'auth.refresh_failed' })).toEqual([]);
  });

  it('records a failed refresh and asks for sign-in when the authorization server refuses the refresh token', async () => {
    const provider = world.provider('alice');
    const { expiresAt } = await signIn(provider);
    const client = await world.connect(provider);
    const refresh = (await provider.tokens())!.refresh_token!;
    await (await world.as.provider.RefreshToken.find(refresh))!.destroy();

    world.clock.advance(expiresAt! - world.clock.now() + 1);
    const error: unknown = await client.callTool({ name: 'whoami', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAuthRequired(error), String(error)).toBe(true);
    const [event] = await world.store.queryAudit({ type: 'auth.refresh_failed' });
    expect(event).toMatchObject({ userId: 'alice', serverId: 'notes', data: { step: 'refresh' } });
    expect(await provider.storedTokens()).toBeUndefined();
  });

  it('steps up on 403 insufficient_scope through the surface, then the call succeeds', async () => {
    const provider = world.provider('alice');
    await signIn(provider);
    const client = await world.connect(provider);

    const refused: unknown = await client.callTool({ name: ADMIN_TOOL, arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const challenge = insufficientScopeChallenge(refused);
    expect(challenge?.scope?.split(' ')).toEqual(expect.arrayContaining(['tools:admin']));
    const result = await stepUp(provider, challenge!);
    expect(result.scope?.split(' ')).toEqual(expect.arrayContaining(['tools:read', 'tools:admin']));
    expect(text(await client.callTool({ name: ADMIN_TOOL, arguments: {} }))).toBe('purged');
  });

  it('stops stepping up after the limit when the server keeps refusing', async () => {
    const provider = world.provider('alice');
    await signIn(provider);
    const challenge = { scope: 'tools:read tools:admin' };
    await stepUp(provider, challenge, { maxStepUps: 1 });
    await expect(stepUp(provider, challenge, { maxStepUps: 1 })).rejects.toMatchObject({
      code: 'auth_failed',
      data: { serverId: 'notes', step: 'authorization' },
    });
  });

  it('revokes the tokens at the authorization server on sign-out, then deletes them', async () => {
    const provider = world.provider('alice');
    await signIn(provider);
    const tokens = (await provider.tokens())!;

    expect(await signOut(provider)).toEqual({ revocation: 'revoked' });
    expect(world.as.log.revocation).toEqual(['refresh_token', 'access_token']);
    expect(await world.as.inspect(tokens.access_token)).toBeUndefined();
    expect(await world.store.listCredentials({ userId: 'alice' })).toEqual([]);
    const [event] = await world.store.queryAudit({ type: 'auth.sign_out' });
    expect(event).toMatchObject({ userId: 'alice', serverId: 'notes', data: { revocation: 'revoked' } });
    expect(await authStatus(provider)).toMatchObject({ signedIn: false });
  });

  it('keeps two users apart: each signs in on their own, and neither sees the other one’s tokens', async () => {
    const alice = world.provider('alice');
    const bob = world.provider('bob');
    await signIn(alice);
    expect(await bob.tokens()).toBeUndefined();
    await signIn(bob);

    expect((await alice.tokens())!.access_token).not.toBe((await bob.tokens())!.access_token);
    expect(text(await (await world.connect(alice)).callTool({ name: 'whoami', arguments: {} }))).toBe(
      'account "alice"',
    );
    expect(text(await (await world.connect(bob)).callTool({ name: 'whoami', arguments: {} }))).toBe('account "bob"');
    expect(world.as.log.registration, 'one client registration per issuer, shared').toBe(1);
    await signOut(alice);
    expect(await bob.tokens()).toBeDefined();
  });

  it('stores nothing when the user gives up', async () => {
    const provider = world.provider('alice', { giveUp: true });
    await expect(signIn(provider)).rejects.toMatchObject({
      code: 'auth_failed',
      data: { serverId: 'notes', step: 'authorization' },
      message: expect.stringContaining('notes'),
    });
    expect(await world.store.listCredentials({})).toEqual([]);
    expect(await world.store.queryAudit({})).toEqual([]);
  });

  it('refuses a redirect whose iss is not the authorization server (mix-up), storing nothing', async () => {
    const provider = world.provider('alice', { tamper: (url) => url.searchParams.set('iss', 'https://evil.example') });
    await expect(signIn(provider)).rejects.toMatchObject({
      code: 'auth_failed',
      data: { step: 'authorization' },
      message: expect.stringMatching(/issuer/),
    });
    expect(world.as.log.token).toEqual([]);
    expect(await world.store.listCredentials({})).toEqual([]);
  });

  it('refuses a redirect with another state, storing nothing', async () => {
    const provider = world.provider('alice', { tamper: (url) => url.searchParams.set('state', 'forged') });
    await expect(signIn(provider)).rejects.toMatchObject({
      code: 'auth_failed',
      data: { step: 'authorization' },
      message: expect.stringMatching(/state/),
    });
    expect(world.as.log.token).toEqual([]);
    expect(await world.store.listCredentials({})).toEqual([]);
  });

  it('reports a refused consent as the authorization step', async () => {
    await expect(signIn(world.provider('alice', { refuse: true }))).rejects.toMatchObject({
      code: 'auth_failed',
      data: { step: 'authorization' },
      message: expect.stringMatching(/access_denied/),
    });
  });

  it('does not accept a token issued for another resource', async () => {
    const other = await startProtectedMcpServer({ authorizationServer: world.as });
    try {
      const provider = world.provider('alice');
      await signIn(provider);
      const token = (await provider.tokens())!.access_token;
      const response = await fetch(other.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
    } finally {
      await other.close();
    }
  });
});
