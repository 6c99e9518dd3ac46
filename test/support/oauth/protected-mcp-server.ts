// An MCP server behind OAuth for the tests, built on the v2 SDK over Streamable HTTP: it validates bearer tokens with
// the test authorization server (audience = its own URL, RFC 8707), answers 401 with `WWW-Authenticate: Bearer
// resource_metadata="...", scope="..."`, serves its protected resource metadata (RFC 9728), and demands a higher
// scope for one tool (403 insufficient_scope) so a client must step up.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import {
  McpServer,
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import type { AuthorizationServer } from './authorization-server.js';

/** The tool that needs `tools:admin` on top of `tools:read`. */
export const ADMIN_TOOL = 'purge_cache';

/** How to start the protected server. */
export interface ProtectedMcpServerOptions {
  readonly authorizationServer: AuthorizationServer;
  /**
   * What the protected resource metadata says: by default the truth. `malformed` serves a document that is not
   * JSON; `authorizationServers` names other servers (plain http elsewhere, say); `resource` claims another resource.
   */
  readonly metadata?: 'malformed' | { readonly authorizationServers?: string[]; readonly resource?: string };
  /** Leave `resource_metadata` out of the 401 challenge: a client must find the metadata at the well-known path. */
  readonly bareChallenge?: boolean;
}

/** A running protected MCP server. */
export interface ProtectedMcpServer {
  /** `http://127.0.0.1:PORT/mcp`: the resource, and the audience its tokens must carry. */
  readonly url: string;
  readonly metadataUrl: string;
  /** Bearer tokens presented, in order (undefined for a request without one). */
  readonly presented: (string | undefined)[];
  close(): Promise<void>;
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'protected-notes', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Says which account the token belongs to' }, (extra) => ({
    content: [
      { type: 'text', text: `account ${JSON.stringify(extra.http?.authInfo?.extra?.['account'] ?? 'unknown')}` },
    ],
  }));
  server.registerTool(ADMIN_TOOL, { description: 'An admin action: needs tools:admin' }, () => ({
    content: [{ type: 'text', text: 'purged' }],
  }));
  return server;
}

/** Starts the protected server and registers its URL as a resource of the authorization server. */
export async function startProtectedMcpServer(options: ProtectedMcpServerOptions): Promise<ProtectedMcpServer> {
  const as = options.authorizationServer;
  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const url = `${origin}/mcp`;
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  as.resources.add(url);
  const presented: (string | undefined)[] = [];
  const gate = requireBearerAuth({
    verifier: {
      verifyAccessToken: async (token) => {
        const found = await as.inspect(token);
        if (found === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, 'unknown, expired or revoked token');
        return {
          token,
          clientId: found.clientId,
          scopes: found.scope.split(' ').filter((s) => s !== ''),
          expiresAt: found.expiresAt,
          resource: new URL(found.audience[0] ?? 'urn:none'),
        };
      },
    },
    requiredScopes: ['tools:read'],
    resourceMetadataUrl: metadataUrl,
    expectedResource: new URL(url),
  });
  const handler = createMcpHandler(() => buildServer());

  function metadata(): Response {
    const m = options.metadata;
    if (m === 'malformed')
      return new Response('{"resource": "half a document', { headers: { 'content-type': 'application/json' } });
    return Response.json({
      resource: m?.resource ?? url,
      authorization_servers: m?.authorizationServers ?? [as.issuer],
      scopes_supported: ['tools:read', 'tools:admin'],
      bearer_methods_supported: ['header'],
    });
  }

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/.well-known/oauth-protected-resource/mcp' || path === '/.well-known/oauth-protected-resource') {
      return metadata();
    }
    if (path !== '/mcp') return new Response('not found', { status: 404 });
    const header = request.headers.get('authorization');
    presented.push(header?.startsWith('Bearer ') ? header.slice(7) : undefined);
    const auth = await gate(request);
    if (auth instanceof Response) return options.bareChallenge === true ? withoutMetadataUrl(auth) : auth;
    if (request.method === 'POST' && !auth.scopes.includes('tools:admin')) {
      const body = (await request
        .clone()
        .json()
        .catch(() => undefined)) as { method?: string; params?: { name?: string } } | undefined;
      if (body?.method === 'tools/call' && body.params?.name === ADMIN_TOOL) {
        return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, 'needs tools:admin'), {
          requiredScopes: ['tools:read', 'tools:admin'],
          resourceMetadataUrl: metadataUrl,
        });
      }
    }
    return handler.fetch(request, { authInfo: { ...auth, extra: { account: await accountOf(as, auth.token) } } });
  }

  // overrideGlobalObjects: false, so the process's Response stays the one fetch returns (the SDK checks instanceof).
  const listener = getRequestListener(handle, { overrideGlobalObjects: false });
  http.on('request', (req, res) => void listener(req, res));
  return {
    url,
    metadataUrl,
    presented,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The challenge without its `resource_metadata` parameter. */
function withoutMetadataUrl(response: Response): Response {
  const challenge = response.headers.get('www-authenticate');
  if (challenge === null) return response;
  const headers = new Headers(response.headers);
  headers.set('www-authenticate', challenge.replace(/,?\s*resource_metadata="[^"]*"/, ''));
  return new Response(response.body, { status: response.status, headers });
}

async function accountOf(as: AuthorizationServer, token: string): Promise<string> {
  const found = await as.provider.AccessToken.find(token);
  return found?.accountId ?? `client ${(await as.provider.ClientCredentials.find(token))?.clientId ?? 'unknown'}`;
}
