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
  /** The claim naming the workspace (a token without it is refused); when not set, `workspace`. */
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
/** Signatures by a key the issuer publishes: never a shared secret. */
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** How long a failed discovery of the issuer's keys is remembered before it is tried again. */
const RETRY_DISCOVERY_MS = 30_000;
/** The longest a discovery request may take. */
const DISCOVERY_TIMEOUT_MS = 5_000;

/**
 * The gateway as a resource server: a bearer JWT is checked against the issuer's keys (its JWKS, found from its
 * authorization-server metadata and cached by `jose`), its issuer, its audience (this resource, so a token meant for
 * another server is refused), its expiry and the required scopes. The user and workspace come from its claims and must
 * be names the host accepts. `gatewayUrl` is the gateway's `/mcp` URL, the default audience. The issuer's metadata is
 * read on the first token; a failure is remembered for 30 s (a stream of bad tokens does not hammer the issuer).
 */
export function createResourceServer(
  settings: GatewayOAuthSettings,
  gatewayUrl: string,
  /** Told why the issuer's keys could not be read (the client is told only that they could not). */
  onerror: (error: Error) => void = () => undefined,
): ResourceServer {
  const resource = settings.resource ?? gatewayUrl;
  const required = settings.scopes ?? [];
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  let failed: { readonly at: number; readonly error: Error } | undefined;
  const jwks = async () => {
    if (keys !== undefined) return keys;
    // A discovery that failed is not retried for every request (a bad token must not make the gateway hammer it).
    if (failed !== undefined && Date.now() - failed.at < RETRY_DISCOVERY_MS) throw failed.error;
    try {
      keys = createRemoteJWKSet(new URL(await jwksUri(settings.issuer)), { timeoutDuration: DISCOVERY_TIMEOUT_MS });
      failed = undefined;
      return keys;
    } catch (error) {
      failed = { at: Date.now(), error: error instanceof Error ? error : new Error(String(error)) };
      throw failed.error;
    }
  };
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
        ({ payload } = await jwtVerify(token, await jwks(), {
          issuer: settings.issuer,
          audience: resource,
          algorithms: ASYMMETRIC,
          // A token without an expiry would never expire: jose checks `exp` only when it is there.
          requiredClaims: ['exp'],
        }));
      } catch (error) {
        if (!(error instanceof joseErrors.JOSEError))
          onerror(error instanceof Error ? error : new Error(String(error)));
        return refused(whyRefused(error));
      }
      // `scope` as RFC 9068 writes it, or `scp` as a list (as some providers issue it).
      const scp = payload['scp'];
      const held = new Set([
        ...(typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : []),
        ...(Array.isArray(scp) ? scp.filter((s): s is string => typeof s === 'string') : []),
      ]);
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
      if (settings.workspaceClaim !== undefined && typeof claimed !== 'string') {
        return refused(`the token has no ${settings.workspaceClaim} claim naming its workspace`);
      }
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
    try {
      const response = await fetch(candidate, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      });
      if (!response.ok) continue;
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
    } catch {
      // Unreachable, slow, or not JSON (a proxy's login page): the next place is tried.
    }
  }
  throw new Error(`the authorization server ${issuer} publishes no metadata naming it and its jwks_uri`);
}

/** A refusal's words for the client: what was wrong with the token, never the key material. */
function whyRefused(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `the token's ${error.claim} claim does not fit`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (error instanceof joseErrors.JOSEError) return 'the token is not a JWT this gateway accepts';
  return "the authorization server's keys could not be read, so no token can be checked now";
}
