import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthWorld, REDIRECT, resultText } from '../../../../test/support/oauth/index.js';
import { signIn } from './oauth-sign-in.js';
import { signOut } from './oauth-sign-out.js';

const SECRET = 'pre-registered-secret-0123456789';

describe('OAuth client identities and machine servers', () => {
  let world: OAuthWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it.each(['client_secret_basic', 'client_secret_post'] as const)(
    'uses a pre-registered client (%s) when the server offers no dynamic registration',
    async (method) => {
      world = await OAuthWorld.open({
        dynamicRegistration: false,
        clients: [
          {
            client_id: 'airlock-registered',
            client_secret: SECRET,
            application_type: 'native',
            redirect_uris: [REDIRECT],
            grant_types: ['authorization_code', 'refresh_token'],
            token_endpoint_auth_method: method,
            id_token_signed_response_alg: 'ES256',
          },
        ],
      });
      const provider = world.provider('alice', {}, { oauth: { clientId: 'airlock-registered', clientSecret: SECRET } });
      const result = await signIn(provider);

      expect(result.clientIdentity).toBe('pre-registered');
      expect(world.as.log.registration).toBe(0);
      const client = await world.connect(provider);
      expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
      expect((await world.store.listCredentials({})).map((r) => r.key.kind)).toEqual(['tokens']);
      const stored = JSON.stringify(await world.store.listCredentials({}));
      expect(stored, 'the client secret is never stored').not.toContain(SECRET);

      world.clock.advance(result.expiresAt! - world.clock.now() + 1);
      expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
      expect(world.as.log.token.map((t) => t.grant)).toEqual(['authorization_code', 'refresh_token']);
      expect(await signOut(provider)).toEqual({ revocation: 'revoked' });
    },
  );

  it('uses a Client ID Metadata Document URL as the client id where the server supports them, registering nothing', async () => {
    const documentUrl = 'https://airlock.example/oauth/client-metadata.json';
    // oidc-provider does not fetch metadata documents: the test registers the client under its URL, standing in
    // for the document the server would fetch, and the server advertises client_id_metadata_document_supported.
    world = await OAuthWorld.open({
      metadataDocuments: true,
      clients: [
        {
          client_id: documentUrl,
          application_type: 'native',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
          id_token_signed_response_alg: 'ES256',
        },
      ],
    });
    const provider = world.provider('alice', {}, { clientMetadataUrl: documentUrl });
    const result = await signIn(provider);

    expect(result.clientIdentity).toBe('metadata-document');
    expect(world.as.log.registration).toBe(0);
    expect(world.provider('alice').clientMetadataUrl).toBeUndefined();
    const client = await world.connect(provider);
    expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
  });

  it('finds the protected resource metadata at its well-known path when the challenge does not name it', async () => {
    world = await OAuthWorld.open({}, { bareChallenge: true });
    const challenge = await fetch(world.mcp.url, { method: 'POST' });
    expect(challenge.headers.get('www-authenticate')).not.toMatch(/resource_metadata/);

    const provider = world.provider('alice');
    expect((await signIn(provider)).issuer).toBe(world.as.issuer);
    const client = await world.connect(provider);
    expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
  });

  it('says registration failed when there is neither dynamic registration nor a pre-registered client', async () => {
    world = await OAuthWorld.open({ dynamicRegistration: false });
    await expect(signIn(world.provider('alice'))).rejects.toMatchObject({
      code: 'auth_failed',
      data: { serverId: 'notes', step: 'registration' },
    });
    expect(await world.store.listCredentials({})).toEqual([]);
  });

  it('gets a machine token with client credentials and a secret, on the first call, with no user step', async () => {
    world = await OAuthWorld.open({
      clients: [
        {
          client_id: 'machine',
          client_secret: SECRET,
          redirect_uris: [],
          response_types: [],
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
    });
    // The host keeps a machine server's tokens as its own: userId ''.
    const provider = world.provider(
      '',
      {},
      {
        oauth: { grant: 'client_credentials', clientId: 'machine', clientSecret: SECRET, scopes: ['tools:read'] },
      },
    );
    const client = await world.connect(provider);

    expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "client machine"');
    expect(world.as.log.token).toEqual([{ grant: 'client_credentials', resource: world.mcp.url }]);
    const [event] = await world.store.queryAudit({ type: 'auth.sign_in' });
    expect(event).toMatchObject({ userId: '', data: { grant: 'client_credentials' } });
    expect(await signOut(provider)).toEqual({ revocation: 'revoked' });
    expect(await world.store.listCredentials({ kind: 'tokens' })).toEqual([]);
  });

  it('gets a machine token with private_key_jwt', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    world = await OAuthWorld.open({
      clients: [
        {
          client_id: 'machine-jwt',
          redirect_uris: [],
          response_types: [],
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ES256',
          jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'machine-key', alg: 'ES256', use: 'sig' }] },
        },
      ],
    });
    const provider = world.provider(
      'machine',
      {},
      {
        oauth: {
          grant: 'client_credentials',
          clientId: 'machine-jwt',
          privateKey: { ...privateKey.export({ format: 'jwk' }), kid: 'machine-key' },
          privateKeyAlgorithm: 'ES256',
        },
      },
    );
    const result = await signIn(provider);

    expect(result.scope).toBeDefined();
    const client = await world.connect(provider);
    expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "client machine-jwt"');
  });
});
