// A real OAuth 2.1 authorization server for the tests: oidc-provider (a certified OpenID provider) on 127.0.0.1 at a
// free port, with resource indicators (RFC 8707: the token's audience is the MCP server's URL), PKCE, refresh tokens,
// revocation (RFC 7009), `iss` in authorization responses (RFC 9207), dynamic client registration (RFC 7591, can be
// switched off) and client credentials. Logging in and consenting are plain HTTP forms (no pages), so a test can sign
// a user in headlessly (see headless-authorize.ts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { testAdapter } from './test-adapter.js';

/** The scopes the MCP servers of the tests define (beside OpenID's offline_access). */
export const TOOL_SCOPES = ['tools:read', 'tools:admin'] as const;

/** How to start the authorization server. */
export interface AuthorizationServerOptions {
  /** Dynamic client registration open to anyone (default true). */
  readonly dynamicRegistration?: boolean;
  /** Clients registered ahead of time. */
  readonly clients?: readonly ClientMetadata[];
  /** Advertise `client_id_metadata_document_supported` (the test registers the document's URL as a client). */
  readonly metadataDocuments?: boolean;
  /** Lifetime of access tokens, in seconds (default 3600). */
  readonly accessTokenTtl?: number;
  /** Access tokens as opaque strings (default) or as JWTs signed with the server's ES256 key (RFC 9068). */
  readonly accessTokenFormat?: 'opaque' | 'jwt';
}

/** What a test sees of the requests the server answered (counts by endpoint). */
export interface AuthorizationServerLog {
  readonly token: { grant: string; resource: string | null }[];
  readonly revocation: string[];
  readonly registration: number;
}

/** A running authorization server. */
export interface AuthorizationServer {
  /** `http://127.0.0.1:PORT`: the issuer, and the base of every endpoint. */
  readonly issuer: string;
  readonly provider: Provider;
  /** MCP server URLs the server issues tokens for (a resource indicator must be one of them). */
  readonly resources: Set<string>;
  readonly log: AuthorizationServerLog;
  /** What an access token is, as the server knows it (undefined when unknown, expired or revoked). */
  inspect(
    token: string,
  ): Promise<{ audience: string[]; scope: string; clientId: string; expiresAt: number } | undefined>;
  close(): Promise<void>;
}

/** Starts an authorization server on a free loopback port. */
export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const resources = new Set<string>();
  const log = { token: [], revocation: [], registration: 0 } as {
    token: { grant: string; resource: string | null }[];
    revocation: string[];
    registration: number;
  };
  const signingKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const configuration: Configuration = {
    adapter: testAdapter(),
    clients: [...(options.clients ?? [])],
    jwks: { keys: [{ ...signingKey, kid: 'test-signing', use: 'sig', alg: 'ES256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    findAccount: (_ctx, id) => Promise.resolve({ accountId: id, claims: () => Promise.resolve({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    scopes: ['openid', 'offline_access', ...TOOL_SCOPES],
    ...(options.metadataDocuments === true ? { discovery: { client_id_metadata_document_supported: true } } : {}),
    pkce: { required: () => true },
    issueRefreshToken: (_ctx, client, code) =>
      Promise.resolve(client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access')),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.dynamicRegistration ?? true },
      revocation: { enabled: true },
      introspection: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!resources.has(indicator)) throw new Error(`unknown resource ${indicator}`);
          return {
            scope: TOOL_SCOPES.join(' '),
            audience: indicator,
            accessTokenTTL: options.accessTokenTtl ?? 3600,
            ...(options.accessTokenFormat === 'jwt'
              ? { accessTokenFormat: 'jwt' as const, jwt: { sign: { alg: 'ES256' as const } } }
              : { accessTokenFormat: 'opaque' as const }),
          };
        },
      },
    },
    // A registration's `scope` is taken as a hint, not a limit (as many servers do): the SDK registers with the
    // scopes of the first sign-in, and a later step-up asks for more.
    extraClientMetadata: {
      properties: ['x_airlock_test'],
      validator: (_ctx, _key, _value, metadata) => {
        delete (metadata as { scope?: string }).scope;
      },
    },
    // Loopback redirect URIs on any port, as RFC 8252 allows native apps; the tests never open them.
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const params = ctx.oidc.params;
    const resource = params?.['resource'];
    log.token.push({ grant: String(params?.['grant_type']), resource: typeof resource === 'string' ? resource : null });
  });
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as unknown as KoaContextWithOIDC).oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (oidc?.route === 'revocation' && ctx.status === 200) {
      log.revocation.push(String(oidc.params?.['token_type_hint']));
    }
  });
  provider.on('registration_create.success', () => {
    log.registration += 1;
  });
  const callback = provider.callback();
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
      return;
    }
    void callback(req, res);
  });

  return {
    issuer,
    provider,
    resources,
    log,
    async inspect(token) {
      const found =
        (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token)) ?? undefined;
      if (found === undefined || found.isExpired) return undefined;
      const aud = found.aud;
      return {
        audience: aud === undefined ? [] : Array.isArray(aud) ? aud : [aud],
        scope: found.scope ?? '',
        clientId: found.clientId ?? '',
        expiresAt: found.exp ?? 0,
      };
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * The interaction endpoints, as forms a test posts to: `GET /interaction/:uid` answers which prompt is open (login or
 * consent); `POST /interaction/:uid/login` with `account=<id>` logs that account in; `POST /interaction/:uid/consent`
 * grants every scope and resource asked for; `POST /interaction/:uid/abort` refuses (access_denied).
 */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [, , uid, action] = (req.url ?? '').split('?')[0]!.split('/');
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ prompt: details.prompt.name }));
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  if (action === 'login') {
    const accountId = form.get('account') ?? 'alice';
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  } else if (action === 'consent') {
    const { prompt, params, session, grantId } = details;
    const grant =
      grantId === undefined
        ? new provider.Grant({ accountId: session!.accountId, clientId: params['client_id'] as string })
        : (await provider.Grant.find(grantId))!;
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      {
        mergeWithLastSubmission: true,
      },
    );
  } else {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the user refused' },
      { mergeWithLastSubmission: false },
    );
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
