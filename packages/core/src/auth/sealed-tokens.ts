import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** What the store keeps, sealed, for a user's tokens. */
export interface SealedTokens {
  readonly tokens: StoredOAuthTokens;
  /** When the access token expires by the host's clock (ms), when the server said. */
  readonly expiresAt?: number;
  readonly savedAt: number;
  /**
   * The client the tokens were issued to: refreshing and revoking use it, whatever registration (another redirect
   * URL: the CLI's loopback port, another console) the issuer's row holds now.
   */
  readonly client?: StoredOAuthClientInformation;
}
