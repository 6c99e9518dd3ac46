/**
 * A server's `"oauth"` configuration: how Airlock identifies itself to the server's authorization server. Everything
 * is optional: with nothing set, the client is a Client ID Metadata Document (when the host serves one and the
 * authorization server supports it) or registers itself dynamically.
 */
export interface OAuthClientConfig {
  /** A client registered ahead of time with the authorization server: preferred over every other identity. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Scopes to ask for when the server's challenge names none (before the metadata's `scopes_supported`). */
  readonly scopes?: readonly string[];
  /** How the pre-registered client authenticates at the token endpoint (default: what the server and secret allow). */
  readonly tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';
  /** The issuer the pre-registered client belongs to: its credentials are sent to no other authorization server. */
  readonly issuer?: string;
  /**
   * `client_credentials` for a machine server (no user, no browser): the client's own secret or key obtains tokens.
   * Default `authorization_code`.
   */
  readonly grant?: 'authorization_code' | 'client_credentials';
  /** For `private_key_jwt`: the private key (PEM, or a JWK object) and its algorithm (default RS256). */
  readonly privateKey?: string | Readonly<Record<string, unknown>>;
  readonly privateKeyAlgorithm?: string;
}

/** What the surface is asked to do to sign a user in: open this URL, and resolve with where the server sent them back. */
export interface AuthorizeRequest {
  readonly serverId: string;
  readonly authorizationUrl: URL;
  /** The scopes asked for, space-separated, when any. */
  readonly scope?: string;
}

/**
 * Shows the user the authorization page and resolves with the redirect URL the authorization server sent back (with
 * its `code`, `state` and `iss`); rejects when the user gives up. `Surface.authorize` in the host.
 */
export type Authorize = (request: AuthorizeRequest, signal?: AbortSignal) => Promise<URL | string>;
