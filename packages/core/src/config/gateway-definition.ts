import type { KeySchema } from './key-schema.js';

/** A user or workspace name as the gateway and the console take it. */
const NAME_PATTERN = '^[A-Za-z0-9._@-]{1,64}$';

/**
 * Keys of `gateway`: `airlock gateway --http` and the console's `/mcp` (with `enabled`) take bearer tokens, each
 * standing for one user in one workspace, so each client's calls are kept, asked and audited as that user's.
 * Part of the one definition in `config-definition.ts`; the reader is `readGatewaySettings` in `@airlock/gateway`.
 */
export const GATEWAY_KEYS: Readonly<Record<string, KeySchema>> = {
  enabled: {
    type: 'boolean',
    description: 'The console also serves the gateway at /mcp, to the users below. Default false.',
  },
  users: {
    type: 'object',
    propertyNames: { pattern: NAME_PATTERN },
    additionalProperties: {
      type: 'object',
      properties: {
        tokenSha256: {
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description: "The sha256 of the user's bearer token, 64 lowercase hex digits (never the token itself).",
        },
        workspace: {
          type: 'string',
          pattern: NAME_PATTERN,
          description: 'The workspace their calls are kept under. Default "default".',
        },
      },
      required: ['tokenSha256'],
      additionalProperties: false,
    },
    description:
      'Who may call through the HTTP gateway, keyed by user name (1-64 letters, digits, ".", "_", "@" or "-"); ' +
      'beside the one user of AIRLOCK_GATEWAY_TOKEN.',
  },
  oauth: {
    type: 'object',
    properties: {
      issuer: {
        type: 'string',
        description: "The authorization server's issuer (https, or http on loopback); its metadata names its JWKS.",
      },
      resource: { type: 'string', description: "The audience tokens must carry. Default: the gateway's own /mcp URL." },
      scopes: { type: 'array', items: { type: 'string' }, description: 'Scopes every token must hold.' },
      userClaim: { type: 'string', description: 'The claim naming the user. Default sub.' },
      workspaceClaim: { type: 'string', description: 'The claim naming the workspace.' },
      workspace: {
        type: 'string',
        pattern: NAME_PATTERN,
        description: 'The workspace of a token that names none. Default "default".',
      },
    },
    required: ['issuer'],
    additionalProperties: false,
    description:
      'The HTTP gateway as an OAuth 2.1 resource server: bearer JWTs of this authorization server are taken beside ' +
      "the users' tokens, and /.well-known/oauth-protected-resource names it.",
  },
};
