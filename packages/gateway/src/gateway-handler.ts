import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Host } from '@airlock/core';
import { sha256Hex } from '@airlock/core';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  isInitializeRequest,
  originValidationResponse,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import { createGatewayServer } from './gateway-server.js';
import type { GatewaySurface } from './gateway-surface.js';

/** Someone allowed to use the HTTP gateway: the sha-256 (hex) of their bearer token, and whose calls they make. */
export interface GatewayUser {
  readonly tokenSha256: string;
  readonly userId: string;
  readonly workspaceId: string;
}

/** What {@link createGatewayHandler} serves, and to whom. */
export interface GatewayHandlerConfig {
  readonly host: Host;
  /** The surface `host` was created with. */
  readonly surface: GatewaySurface;
  readonly users: readonly GatewayUser[];
  /**
   * The host names (no port) the Host and Origin headers may carry, e.g. `localhost`, `127.0.0.1`, `[::1]`; any other
   * is refused 403 (DNS rebinding). `'any'` checks neither, for a server whose operator chose to listen for any name.
   */
  readonly allowedHostnames: readonly string[] | 'any';
  /** The largest request body read, in bytes; a larger one is answered 413. Default: the SDK's 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Reports errors that change no response (a session's transport failing after the fact). */
  readonly onerror?: (error: Error) => void;
}

/** The gateway's `/mcp` endpoint as a web-standard handler, with the sessions it keeps. */
export interface GatewayHandler {
  /** Answers one request to `/mcp` (any other path is the caller's to route). */
  handle(request: Request): Promise<Response>;
  /** The sessions open now. */
  sessions(): number;
  /** Closes every session (the host stays open: it is the caller's). */
  close(): Promise<void>;
}

interface Session {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly user: GatewayUser;
}

/**
 * The gateway over Streamable HTTP as a fetch handler (2025-11-25 sessions: SSE streams, DELETE), so the CLI's own
 * HTTP server and the console both serve it. Checks, in order: the Host and Origin headers (403), the bearer token
 * (401 with `WWW-Authenticate: Bearer` when missing or unknown), the body size (413). Each MCP session is one
 * conversation of the token's user, and only that user's requests reach it.
 */
export function createGatewayHandler(config: GatewayHandlerConfig): GatewayHandler {
  const maxBody = config.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const onerror = config.onerror ?? (() => undefined);
  const allowed = config.allowedHostnames === 'any' ? undefined : [...config.allowedHostnames];
  const sessions = new Map<string, Session>();

  async function handle(request: Request): Promise<Response> {
    const foreign =
      allowed === undefined
        ? undefined
        : (hostHeaderValidationResponse(request, allowed) ?? originValidationResponse(request, allowed));
    if (foreign !== undefined) return foreign;
    const user = userOf(config.users, request.headers.get('authorization'));
    if (user === undefined) return unauthorized();
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const body = await readRequestBody(request, maxBody);
      if (body.tooLarge) return jsonRpcError(413, -32000, `Request body larger than ${maxBody} bytes`);
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return jsonRpcError(400, -32700, 'Parse error');
      }
    }
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      // Another user's session is as unknown as a closed one: 404, which tells a client to start a new session.
      if (session === undefined || session.user !== user) return jsonRpcError(404, -32000, 'Session not found');
      return session.transport.handleRequest(request, { parsedBody });
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return jsonRpcError(400, -32000, 'Bad Request: no session; send initialize first (without Mcp-Session-Id)');
    }
    return open(user).transport.handleRequest(request, { parsedBody });
  }

  function open(user: GatewayUser): Session {
    const id = randomUUID();
    const scope = { userId: user.userId, workspaceId: user.workspaceId, conversationId: `gateway-${id}` };
    const server = createGatewayServer({ host: config.host, surface: config.surface, scope });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, session),
      onsessionclosed: (sessionId) => void sessions.delete(sessionId),
    });
    const session: Session = { server, transport, user };
    server.onerror = onerror;
    const closed = server.onclose;
    server.onclose = () => {
      sessions.delete(id);
      closed?.();
    };
    // connect() on a transport that has not started only wires handlers: it settles at once.
    server.connect(transport).catch((error: unknown) => onerror(asError(error)));
    return session;
  }

  return {
    handle,
    sessions: () => sessions.size,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
    },
  };
}

/** The user whose token this is (compared by hash, in constant time), or undefined. */
function userOf(users: readonly GatewayUser[], authorization: string | null): GatewayUser | undefined {
  const match = /^Bearer ([^\s]+)$/i.exec(authorization ?? '');
  if (match?.[1] === undefined) return undefined;
  const presented = Buffer.from(sha256Hex(match[1]), 'hex');
  return users.find((user) => {
    const expected = Buffer.from(user.tokenSha256, 'hex');
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
}

/** No token, or one the gateway does not know: the gateway is no OAuth resource server, so no metadata is named. */
function unauthorized(): Response {
  const description = 'a bearer token the gateway knows is required';
  return Response.json(
    { error: 'invalid_token', error_description: description },
    {
      status: 401,
      headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` },
    },
  );
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
