import { afterEach, describe, expect, it } from 'vitest';
import { OAuthWorld, REDIRECT, startProtectedMcpServer } from '../../../../test/support/oauth/index.js';
import type { ProtectedMcpServerOptions } from '../../../../test/support/oauth/index.js';
import { signIn } from './oauth-sign-in.js';
import { UserOAuthProvider } from './user-oauth-provider.js';

// Each bad input is a clear error naming the server and the step, and nothing is stored.

describe('OAuth sign-in refuses bad input clearly', () => {
  let world: OAuthWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function expectRefused(
    metadata: ProtectedMcpServerOptions['metadata'],
    step: string,
    message: RegExp,
  ): Promise<void> {
    world = await OAuthWorld.open({}, { metadata });
    await expect(signIn(world.provider('alice'))).rejects.toMatchObject({
      code: 'auth_failed',
      data: { serverId: 'notes', step },
      message: expect.stringMatching(message),
    });
    expect(await world.store.listCredentials({})).toEqual([]);
    expect(await world.store.queryAudit({})).toEqual([]);
    expect(world.as.log.token).toEqual([]);
  }

  it('refuses malformed protected resource metadata at discovery', async () => {
    await expectRefused('malformed', 'discovery', /sign-in to notes failed at discovery/);
  });

  it('refuses an authorization server on plain http that is not loopback', async () => {
    await expectRefused(
      { authorizationServers: ['http://auth.example.test'] },
      'discovery',
      /refused http to http:\/\/auth\.example\.test.*https/,
    );
  });

  it('refuses metadata that names another resource than the server (RFC 8707 mismatch)', async () => {
    await expectRefused({ resource: 'https://elsewhere.example/mcp' }, 'discovery', /elsewhere\.example/);
  });

  it('reports an error from the token endpoint (a wrong client secret) at the token step', async () => {
    world = await OAuthWorld.open({
      clients: [
        {
          client_id: 'airlock-registered',
          client_secret: 'the-right-secret-0123456789abcdef',
          application_type: 'native',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'ES256',
        },
      ],
    });
    const provider = world.provider('alice', {}, { oauth: { clientId: 'airlock-registered', clientSecret: 'wrong' } });
    await expect(signIn(provider)).rejects.toMatchObject({
      code: 'auth_failed',
      data: { serverId: 'notes', step: 'token', oauthError: 'invalid_client' },
    });
    expect(await world.store.listCredentials({})).toEqual([]);
    expect(await world.store.queryAudit({})).toEqual([]);
  });

  it('leaves the other servers alone: a bad server fails, a good one beside it signs in', async () => {
    world = await OAuthWorld.open();
    const bad = await startProtectedMcpServer({ authorizationServer: world.as, metadata: 'malformed' });
    try {
      const broken = new UserOAuthProvider({
        ...world.provider('alice').options,
        serverId: 'broken',
        serverUrl: bad.url,
        serverIdentity: 'identity-of-broken',
      });
      await expect(signIn(broken)).rejects.toMatchObject({ code: 'auth_failed', data: { serverId: 'broken' } });
      await signIn(world.provider('alice'));
      expect((await world.store.listCredentials({ kind: 'tokens' })).map((r) => r.key.serverIdentity)).toEqual([
        'identity-of-notes',
      ]);
    } finally {
      await bad.close();
    }
  });

  it('refuses a sign-in without a surface to show the page, and a metadata document URL that is not https', async () => {
    world = await OAuthWorld.open();
    const provider = world.provider('alice');
    const { authorize: _none, ...noSurface } = provider.options;
    await expect(signIn(new UserOAuthProvider(noSurface))).rejects.toMatchObject({
      code: 'auth_failed',
      data: { step: 'authorization' },
    });
    expect(() => world!.provider('alice', {}, { clientMetadataUrl: 'http://host.example/client.json' })).toThrow(
      expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining('notes') }),
    );
  });
});
