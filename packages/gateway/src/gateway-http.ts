import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Host } from '@airlock/core';
import { sha256Hex } from '@airlock/core';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  isInitializeRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import { createGatewayServer } from './gateway-server.js';
import { fetchListener } from './node-fetch-listener.js';
import type { GatewaySurface } from './gateway-surface.js';

/** Someone allowed to use the HTTP gateway: the sha-256 (hex) of their bearer token, and whose calls they make. */
export interface GatewayUser {
  readonly tokenSha256: string;
  readonly userId: string;
  readonly workspaceId: string;
}

/** How to start {@link startGatewayHttp}. */
export interface GatewayHttpConfig {
  readonly host: Host;
  /** The surface `host` was created with. */
  readonly surface: GatewaySurface;
  readonly users: readonly GatewayUser[];
  /** 0 picks a free port. */
  readonly port: number;
  /** The interface to listen on; default 127.0.0.1 (loopback only). */
  readonly hostname?: string;
  /** The largest request body read, in bytes; a larger one is answered 413. Default: the SDK's 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Reports errors that change no response (a session's transport failing after the fact). */
  readonly onerror?: (error: Error) => void;
}

/** A running HTTP gateway. */
export interface GatewayHttp {
  /** The MCP endpoint, `http://HOST:PORT/mcp`. */
  readonly url: string;
  /** The sessions open now. */
  sessions(): number;
  /** Stops listening and closes every session (the host stays open: it is the caller's). */
  close(): Promise<void>;
}

interface Session {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly user: GatewayUser;
}

/**
 * Serves the gateway over Streamable HTTP at `/mcp` (2025-11-25 sessions: SSE streams, DELETE). Checks, in order:
 * the Host and Origin headers (a foreign one is refused 403: DNS rebinding), the bearer token (401 with
 * `WWW-Authenticate: Bearer` when missing or unknown), the body size (413). Each MCP session is one conversation of
 * the token's user, and only that user's requests reach it.
 */
export async function startGatewayHttp(config: GatewayHttpConfig): Promise<GatewayHttp> {
  const hostname = config.hostname ?? '127.0.0.1';
  const maxBody = config.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const onerror = config.onerror ?? (() => undefined);
  const allowedHosts = [...new Set([...localhostAllowedHostnames(), bracketed(hostname)])];
  const allowedOrigins = [...new Set([...localhostAllowedOrigins(), bracketed(hostname)])];
  const sessions = new Map<string, Session>();

  async function handle(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/mcp') return text(404, 'Not found: the MCP endpoint is /mcp');
    const foreign =
      hostHeaderValidationResponse(request, allowedHosts) ?? originValidationResponse(request, allowedOrigins);
    if (foreign !== undefined) return foreign;
    const user = userOf(config.users, request.headers.get('authorization'));
    if (user === undefined) return unauthorized();
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const body = await readRequestBody(request, maxBody);
      if (body.tooLarge) return jsonRpcError(413, `Request body larger than ${maxBody} bytes`);
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return Response.json(
          { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
          {
            status: 400,
          },
        );
      }
    }
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      // Another user's session is as unknown as a closed one: 404, which tells a client to start a new session.
      if (session === undefined || session.user !== user) return jsonRpcError(404, 'Session not found');
      return session.transport.handleRequest(request, { parsedBody });
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return jsonRpcError(400, 'Bad Request: no session; send initialize first (without Mcp-Session-Id)');
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

  let origin = '';
  const http = createServer(fetchListener(handle, () => origin, onerror));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, hostname, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  origin = `http://${bracketed(hostname)}:${port}`;
  return {
    url: `${origin}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
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

/** An IPv6 literal as the Host header carries it. */
function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}

function jsonRpcError(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }, { status });
}

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain' } });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
