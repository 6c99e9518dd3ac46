import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  OAuthError,
  OAuthErrorCode,
  originValidationResponse,
  requireBearerAuth,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AuthInfo, ProtocolEra, Server } from '@modelcontextprotocol/server';
import { createDemoServer } from './demo-server.js';
import type { DemoServerOptions } from './demo-server.js';
import { DemoState } from './demo-state.js';
import { toNodeListener } from './node-listener.js';

/** How to start {@link startHttpDemoServer}. */
export interface HttpDemoServerConfig {
  /** The port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Options for every instance; the state and the list-changed fan-out are the HTTP server's own. */
  readonly demo?: Omit<DemoServerOptions, 'state' | 'era' | 'onToolsChanged'>;
  /** Reports errors that do not change any response (a client went away, a rejected request). */
  readonly onerror?: (error: Error) => void;
  /** Serve 2026-07-28 only: a 2025-11-25 request is refused (-32022) rather than given a session. */
  readonly modernOnly?: boolean;
  /**
   * Demand `Authorization: Bearer <bearerToken>` on every request: anything else gets the SDK's 401 with a
   * `WWW-Authenticate: Bearer` challenge naming `invalid_token` and the protected resource metadata URL.
   */
  readonly bearerToken?: string;
}

/** A running HTTP demo server. */
export interface HttpDemoServer {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Stops accepting connections, closes every session and the modern handler. */
  close(): Promise<void>;
}

interface LegacySession {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

/**
 * Serves the demo over Streamable HTTP on 127.0.0.1 at `/mcp`, in both eras, with the best the SDK offers for each:
 *
 * - 2026-07-28 (requests carrying the `_meta` envelope): `createMcpHandler` with `legacy: 'reject'`, one instance per
 *   request; elicitation rides input-required results, list changes go to `subscriptions/listen` streams.
 * - 2025-11-25: not the handler's default stateless fallback, which cannot send server-to-client requests, but a
 *   sessionful `WebStandardStreamableHTTPServerTransport` per `initialize`, routed with `isLegacyRequest` (the pattern
 *   the SDK documents). So elicitation, progress and `tools/list_changed` reach 2025 clients too.
 *
 * Host and Origin headers must be localhost (DNS rebinding protection).
 */
export async function startHttpDemoServer(config: HttpDemoServerConfig): Promise<HttpDemoServer> {
  const onerror = config.onerror ?? (() => {});
  const state = new DemoState();
  const sessions = new Map<string, LegacySession>();
  const build = (era: ProtocolEra) =>
    createDemoServer({ ...config.demo, state, era, onToolsChanged: () => toolsChanged() });
  const modern = createMcpHandler(({ era }) => build(era), { legacy: 'reject', onerror });

  function toolsChanged(): void {
    modern.notify.toolsChanged();
    for (const { server } of sessions.values()) server.sendToolListChanged().catch(onerror);
  }

  async function serveLegacy(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      return session === undefined ? jsonRpcError(404, 'Session not found') : session.transport.handleRequest(request);
    }
    if (!(await opensSession(request))) {
      return jsonRpcError(400, 'Bad Request: no session; a 2025-11-25 client must send initialize first');
    }
    const server = build('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    server.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request);
  }

  async function handle(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/mcp') {
      return new Response('Not found: the MCP endpoint is /mcp', { status: 404 });
    }
    const rejected =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      originValidationResponse(request, localhostAllowedOrigins());
    if (rejected !== undefined) return rejected;
    if (gate !== undefined) {
      const auth = await gate(request);
      if (auth instanceof Response) return auth;
    }
    if (config.modernOnly === true) return modern.fetch(request);
    return (await isLegacyRequest(request)) ? serveLegacy(request) : modern.fetch(request);
  }

  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const gate = config.bearerToken === undefined ? undefined : bearerGate(config.bearerToken, origin);
  http.on('request', toNodeListener(handle, { origin, maxBodyBytes: DEFAULT_MAX_REQUEST_BODY_SIZE, onerror }));
  return {
    url: `${origin}/mcp`,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
      await modern.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The SDK's Bearer gate over one fixed token, advertising the metadata URL a client would discover sign-in from. */
function bearerGate(token: string, origin: string): (request: Request) => Promise<AuthInfo | Response> {
  return requireBearerAuth({
    verifier: {
      verifyAccessToken: (presented) => {
        if (presented !== token) {
          return Promise.reject(
            new OAuthError(OAuthErrorCode.InvalidToken, 'the demo server does not know this token'),
          );
        }
        return Promise.resolve({ token, clientId: 'airlock-demo', scopes: [], expiresAt: 4_102_444_800 });
      },
    },
    resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp`,
  });
}

/** Whether a session-less 2025 request is the `initialize` that opens a session. */
async function opensSession(request: Request): Promise<boolean> {
  if (request.method !== 'POST') return false;
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => undefined);
  return isInitializeRequest(body);
}

function jsonRpcError(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }, { status });
}
