// A machine server signed in with private_key_jwt from the config file, as a user writes it: the key in a PEM file
// beside the config (`oauth.privateKeyFile`), against a real authorization server (oidc-provider) that knows the
// client by its public key. And the config's refusals, each naming the file, line and column.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthWorld, resultText } from '../../../../test/support/oauth/index.js';
import { readConfigFile } from '../host/config-file.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { signIn } from './oauth-sign-in.js';

/** Writes `oauth` as the only server's settings in a config file, beside `files`; returns the config's path. */
function configWith(
  oauth: Record<string, unknown>,
  files: Record<string, string> = {},
  inputs: readonly Record<string, unknown>[] = [],
): string {
  const dir = scratchDir('airlock-oauth-config-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const path = join(dir, 'mcp.json');
  writeFileSync(
    path,
    JSON.stringify({ inputs, mcpServers: { machine: { url: 'https://mcp.example/mcp', oauth } } }, null, 2),
  );
  return path;
}

describe('private_key_jwt from the config file', () => {
  let world: OAuthWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('reads the key from a PEM file beside the config (SEC1, as openssl writes it) and gets a machine token', async () => {
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
          jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' }] },
        },
      ],
    });
    const path = configWith(
      {
        grant: 'client_credentials',
        clientId: 'machine-jwt',
        privateKeyFile: 'client.pem',
        privateKeyAlgorithm: 'ES256',
      },
      { 'client.pem': privateKey.export({ format: 'pem', type: 'pkcs8' }) as string },
    );
    const [server] = readConfigFile(path).servers;
    if (server?.transport !== 'http' || server.oauth === undefined) throw new Error('an HTTP server with oauth');
    const provider = world.provider('', {}, { oauth: server.oauth });
    await signIn(provider);

    const client = await world.connect(provider);
    expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "client machine-jwt"');
  });

  it('takes a secret from the environment, and refuses an input there', () => {
    process.env['AIRLOCK_TEST_CLIENT_SECRET'] = 's3cret';
    try {
      const [server] = readConfigFile(
        configWith({ grant: 'client_credentials', clientId: 'm', clientSecret: '${env:AIRLOCK_TEST_CLIENT_SECRET}' }),
      ).servers;
      expect(server?.transport === 'http' && server.oauth?.clientSecret).toBe('s3cret');
    } finally {
      delete process.env['AIRLOCK_TEST_CLIENT_SECRET'];
    }
    expect(() =>
      readConfigFile(
        configWith({ clientId: 'm', clientSecret: '${input:secret}' }, {}, [{ id: 'secret', type: 'promptString' }]),
      ),
    ).toThrow(/mcp\.json:\d+:\d+: .*oauth\.clientSecret cannot take an input/);
  });

  it('names the file, line and column of a key it cannot use', () => {
    expect(() => readConfigFile(configWith({ clientId: 'm', privateKeyFile: 'missing.pem' }))).toThrow(
      /mcp\.json:\d+:\d+: .*oauth\.privateKeyFile cannot be read: .*missing\.pem: ENOENT/,
    );
    expect(() =>
      readConfigFile(configWith({ clientId: 'm', privateKeyFile: 'not-a-key.pem' }, { 'not-a-key.pem': 'hello' })),
    ).toThrow(/oauth\.privateKeyFile is not a private key in PEM/);
    expect(() => readConfigFile(configWith({ privateKey: '${env:HOME}' }))).toThrow(
      /oauth\.privateKey is not a private/,
    );
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    expect(() => readConfigFile(configWith({ privateKeyFile: 'k.pem' }, { 'k.pem': pem as string }))).toThrow(
      /a private key \(private_key_jwt\) needs the clientId/,
    );
    expect(() =>
      readConfigFile(
        configWith(
          { clientId: 'm', privateKeyFile: 'k.pem', privateKeyAlgorithm: 'RS256' },
          { 'k.pem': pem as string },
        ),
      ),
    ).toThrow(
      /oauth\.privateKeyAlgorithm is RS256, which this key \(ec, prime256v1\) cannot sign with \(it can: ES256\)/,
    );
    expect(() => readConfigFile(configWith({ clientId: 'm', privateKeyAlgorithm: 'HS256' }))).toThrow(
      /oauth\.privateKeyAlgorithm must be one of RS256/,
    );
  });
});
