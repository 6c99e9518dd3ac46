import type { JWTPayload } from 'jose';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';

/** The config's `gateway.oauth`: the gateway as an OAuth 2.1 resource server of one authorization server. */
export interface GatewayOAuthSettings {
  /** The authorization server's issuer (its metadata names its JWKS); tokens must carry it as `iss`. */
  readonly issuer: string;
  /** The audience tokens must carry (RFC 8707): default the gateway's own `/mcp` URL. */
  readonly resource?: string;
  /** Scopes every token must hold (its `scope` claim); named in the protected-resource metadata. */
  readonly scopes?: readonly string[];
  /** The claim naming the user (default `sub`). */
  readonly userClaim?: string;
  /** The claim naming the workspace; without it (or when absent from a token), `workspace`. */
  readonly workspaceClaim?: string;
  /** The workspace of a token that names none (default "default"). */
  readonly workspace?: string;
}

/** Who a verified token is, or why it was refused (`status` 401 or 403, and the `WWW-Authenticate` error). */
export type TokenCheck =
  | { readonly ok: true; readonly userId: string; readonly workspaceId: string }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly error: 'invalid_token' | 'insufficient_scope';
      readonly description: string;
    };

/** Checks bearer JWTs for one resource, and describes that resource (RFC 9728). */
export interface ResourceServer {
  verify(token: string): Promise<TokenCheck>;
  /** The protected-resource metadata document. */
  metadata(): Record<string, unknown>;
  /** The URL of that document, for `WWW-Authenticate: Bearer resource_metadata="…"`. */
  readonly metadataUrl: string;
}

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

/**
 * The gateway as a resource server: a bearer JWT is checked against the issuer's keys (its JWKS, found from its
 * authorization-server metadata and cached by `jose`), its issuer, its audience (this resource, so a token meant for
 * another server is refused), its expiry and the required scopes. The user and workspace come from its claims and must
 * be names the host accepts. `gatewayUrl` is the gateway's `/mcp` URL, the default audience.
 */
export function createResourceServer(settings: GatewayOAuthSettings, gatewayUrl: string): ResourceServer {
  const resource = settings.resource ?? gatewayUrl;
  const required = settings.scopes ?? [];
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const jwks = async () => (keys ??= createRemoteJWKSet(new URL(await jwksUri(settings.issuer))));
  const refused = (description: string): TokenCheck => ({
    ok: false,
    status: 401,
    error: 'invalid_token',
    description,
  });
  const url = new URL(resource);
  const metadataUrl = `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;

  return {
    metadataUrl,
    metadata: () => ({
      resource,
      authorization_servers: [settings.issuer],
      bearer_methods_supported: ['header'],
      ...(required.length > 0 && { scopes_supported: [...required] }),
      resource_name: 'Airlock gateway',
    }),
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await jwks(), { issuer: settings.issuer, audience: resource }));
      } catch (error) {
        return refused(whyRefused(error));
      }
      const held = new Set(typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : []);
      const missing = required.filter((scope) => !held.has(scope));
      if (missing.length > 0) {
        return {
          ok: false,
          status: 403,
          error: 'insufficient_scope',
          description: `the token lacks the scope ${missing.join(' ')}`,
        };
      }
      const userId = payload[settings.userClaim ?? 'sub'];
      if (typeof userId !== 'string' || !NAME.test(userId)) {
        return refused(`the token's ${settings.userClaim ?? 'sub'} claim is not a user name the gateway accepts`);
      }
      const claimed = settings.workspaceClaim === undefined ? undefined : payload[settings.workspaceClaim];
      const workspaceId = typeof claimed === 'string' ? claimed : (settings.workspace ?? 'default');
      if (!NAME.test(workspaceId)) return refused(`the token's workspace claim is not a workspace name`);
      return { ok: true, userId, workspaceId };
    },
  };
}

/** The issuer's JWKS URL, from its RFC 8414 metadata (then OpenID Connect discovery). */
async function jwksUri(issuer: string): Promise<string> {
  const base = issuer.replace(/\/$/, '');
  const path = new URL(issuer).pathname.replace(/\/$/, '');
  const origin = new URL(issuer).origin;
  const candidates = [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${base}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    const response = await fetch(candidate, { headers: { accept: 'application/json' } }).catch(() => undefined);
    if (response?.ok !== true) continue;
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
  }
  throw new Error(`the authorization server ${issuer} publishes no metadata naming it and its jwks_uri`);
}

/** A refusal's words for the client: what was wrong with the token, never the key material. */
function whyRefused(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `the token's ${error.claim} claim does not fit`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (error instanceof joseErrors.JOSEError) return 'the token is not a JWT this gateway accepts';
  return `the authorization server's keys could not be read: ${error instanceof Error ? error.message : String(error)}`;
}
