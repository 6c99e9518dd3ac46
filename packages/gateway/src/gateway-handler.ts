import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Host } from '@airlock/core';
import { sha256Hex, tenantMatches } from '@airlock/core';
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isLegacyRequest,
  originValidationResponse,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AuthInfo, McpHttpHandler, Server } from '@modelcontextprotocol/server';
import { ExtensionTasks } from './extension-tasks.js';
import { createGatewayServer } from './gateway-server.js';
import type { GatewaySurface } from './gateway-surface.js';
import type { ResourceServer } from './oauth-resource-server.js';
import { followedBody } from './followed-body.js';
import { RoundTrips } from './round-trips.js';
import { UserListens } from './user-listens.js';

/** The conversation a user's 2026-07-28 requests run under: that revision has no sessions to tell them apart. */
const STATELESS_CONVERSATION = 'gateway-2026';

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
   * Where bearer JWTs of an authorization server are checked, when the gateway is its resource server (a token no
   * user of `users` holds is then checked here). A function, since the gateway's own URL is known only once it listens.
   */
  readonly resourceServer?: () => ResourceServer | undefined;
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
  /**
   * The protected-resource metadata (RFC 9728) when the gateway is a resource server and `path` is where it lives (the
   * path-suffixed place or the root one); otherwise undefined. Public: it is how a client finds where to sign in.
   */
  metadata(path: string): Response | undefined;
  /** The sessions open now. */
  sessions(): number;
  /** The users with a 2026-07-28 request or listen stream open now (each holds a handler of their own). */
  modernUsers(): number;
  /** Closes every session (the host stays open: it is the caller's). */
  close(): Promise<void>;
}

/**
 * Whose requests a session takes: a user in a workspace, and how they proved it (a token of `users`, or a JWT the
 * resource server checked), so a session opened one way is never continued the other.
 */
type Caller = Pick<GatewayUser, 'userId' | 'workspaceId'> & { readonly via: 'token' | 'oauth' };

/** One user's 2026-07-28 handler, with their listens and how many of their requests and streams are open. */
interface ModernUser {
  readonly key: string;
  readonly handler: McpHttpHandler;
  readonly listens: UserListens;
  open: number;
}

interface Session {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly user: Caller;
}

/**
 * The gateway over Streamable HTTP as a fetch handler (2025-11-25 sessions: SSE streams, DELETE), so the CLI's own
 * HTTP server and the console both serve it. Checks, in order: the Host and Origin headers (403), the bearer token
 * (401 with `WWW-Authenticate: Bearer` when missing or unknown, naming the protected-resource metadata when the
 * gateway is a resource server; 403 for a token without the scopes it needs), the body size (413). Each MCP session
 * is one conversation of the token's user, and only that user's requests reach it. A 2026-07-28 request (it carries
 * the per-request envelope) is served statelessly by a server of its own, under one conversation per user; a call
 * asked about continues across the client's retries, which only the user who started it can make. Its
 * `subscriptions/listen` streams hear list changes that concern the user and updates of the URIs they name from
 * the user's own subscriptions, never another user's (see {@link UserListens}).
 */
export function createGatewayHandler(config: GatewayHandlerConfig): GatewayHandler {
  const maxBody = config.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const onerror = config.onerror ?? (() => undefined);
  const allowed = config.allowedHostnames === 'any' ? undefined : [...config.allowedHostnames];
  const sessions = new Map<string, Session>();
  // 2026-07-28 requests: one server instance per request, for the user the request's token named; a call's questions
  // wait in `roundTrips` between the client's retries. Each user has a handler of their own: its event bus feeds
  // that user's `subscriptions/listen` streams only, so one user's resource updates never reach another's. A user's
  // handler is kept while a request or listen stream of theirs is open and dropped after (one per user ever seen
  // would grow without end with OAuth users); a new one is a few objects, and no question waits in it.
  const roundTrips = new RoundTrips();
  // The tasks a 2026-07-28 call was answered with, and the questions they wait on, across the requests about them.
  const extensionTasks = new ExtensionTasks({ host: config.host, surface: config.surface });
  const modern = new Map<string, ModernUser>();
  function modernOf(user: Caller): ModernUser {
    const key = JSON.stringify([user.userId, user.workspaceId, user.via]);
    let served = modern.get(key);
    if (served === undefined) {
      const scope = { userId: user.userId, workspaceId: user.workspaceId, conversationId: STATELESS_CONVERSATION };
      const handler = createMcpHandler(
        () =>
          createGatewayServer({
            host: config.host,
            surface: config.surface,
            scope,
            era: 'modern',
            roundTrips,
            extensionTasks,
            relayListChanges: false,
          }),
        { legacy: 'reject', onerror, maxRequestBodySize: maxBody },
      );
      const listens = new UserListens({ host: config.host, scope, notify: handler.notify, onerror });
      served = { key, handler, listens, open: 0 };
      modern.set(key, served);
    }
    return served;
  }
  /**
   * One request or stream of `served` is over; with none left the user's handler goes, once the host has been told
   * of every listen that ended (a new handler's subscribe must not race this one's unsubscribe of the same URI).
   */
  function release(served: ModernUser): void {
    served.open -= 1;
    if (served.open > 0) return;
    void served.listens.settled().then(async () => {
      if (served.open > 0 || modern.get(served.key) !== served) return;
      modern.delete(served.key);
      await Promise.allSettled([served.handler.close(), served.listens.close()]);
    });
  }
  /** Tells the listen streams of every user the tenant's change concerns (every user's, for a shared server's). */
  const relay = (tenant: string | undefined, tell: (notify: McpHttpHandler['notify']) => void) => {
    for (const [key, { handler }] of modern) {
      const [userId, workspaceId] = JSON.parse(key) as [string, string];
      if (tenant === undefined || tenantMatches(tenant, { userId, workspaceId })) tell(handler.notify);
    }
  };
  const stopRelays = [
    config.host.on('tools.changed', ({ tenant }) => relay(tenant, (notify) => notify.toolsChanged())),
    config.host.on('resources.changed', ({ tenant }) => relay(tenant, (notify) => notify.resourcesChanged())),
    config.host.on('prompts.changed', ({ tenant }) => relay(tenant, (notify) => notify.promptsChanged())),
  ];

  async function handle(request: Request): Promise<Response> {
    const foreign =
      allowed === undefined
        ? undefined
        : (hostHeaderValidationResponse(request, allowed) ?? originValidationResponse(request, allowed));
    if (foreign !== undefined) return foreign;
    const token = bearerOf(request.headers.get('authorization'));
    const resourceServer = config.resourceServer?.();
    const known = token === undefined ? undefined : userOf(config.users, token);
    let user: Caller | undefined = known && { userId: known.userId, workspaceId: known.workspaceId, via: 'token' };
    if (user === undefined && token !== undefined && resourceServer !== undefined) {
      const checked = await resourceServer.verify(token);
      if (!checked.ok) return unauthorized(checked, resourceServer);
      // A JWT naming a user of a static token would share that user's history and stored decisions: refused.
      if (config.users.some((u) => u.userId === checked.userId)) {
        const description = `the token's user ${checked.userId} is also a gateway user of a static token`;
        return unauthorized({ status: 401, error: 'invalid_token', description }, resourceServer);
      }
      user = { userId: checked.userId, workspaceId: checked.workspaceId, via: 'oauth' };
    }
    if (user === undefined) return unauthorized(undefined, resourceServer);
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
    if (request.method === 'POST' && sessionId === null && !(await isLegacyRequest(request, parsedBody))) {
      const authInfo: AuthInfo = { token: token ?? '', clientId: user.userId, scopes: [], extra: { caller: user } };
      const served = modernOf(user);
      served.open += 1;
      let response: Response;
      try {
        response = await served.handler.fetch(request, { parsedBody, authInfo });
      } catch (error) {
        release(served);
        throw error;
      }
      const listened = listenedUris(parsedBody);
      const answer = listened === undefined ? response : served.listens.watch(listened, response);
      return followedBody(answer, () => release(served));
    }
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      // Another user's session is as unknown as a closed one: 404, which tells a client to start a new session.
      const theirs = session !== undefined && sameCaller(session.user, user);
      if (!theirs) return jsonRpcError(404, -32000, 'Session not found');
      return session.transport.handleRequest(request, { parsedBody });
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return jsonRpcError(400, -32000, 'Bad Request: no session; send initialize first (without Mcp-Session-Id)');
    }
    return open(user).transport.handleRequest(request, { parsedBody });
  }

  function open(user: Caller): Session {
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
    metadata(path) {
      const resourceServer = config.resourceServer?.();
      if (resourceServer === undefined) return undefined;
      const places = [new URL(resourceServer.metadataUrl).pathname, '/.well-known/oauth-protected-resource'];
      return places.includes(path) ? Response.json(resourceServer.metadata()) : undefined;
    },
    sessions: () => sessions.size,
    modernUsers: () => modern.size,
    close: async () => {
      for (const stop of stopRelays.splice(0)) stop();
      extensionTasks.close();
      await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
      const served = [...modern.values()];
      modern.clear();
      await Promise.allSettled(served.flatMap(({ handler, listens }) => [handler.close(), listens.close()]));
    },
  };
}

/** The resource URIs a `subscriptions/listen` request names, or undefined for any other message. */
function listenedUris(body: unknown): string[] | undefined {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (message?.method !== 'subscriptions/listen') return undefined;
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
function bearerOf(authorization: string | null): string | undefined {
  return /^Bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1];
}

/** The user whose token this is (compared by hash, in constant time), or undefined. */
function userOf(users: readonly GatewayUser[], token: string): GatewayUser | undefined {
  const presented = Buffer.from(sha256Hex(token), 'hex');
  return users.find((user) => {
    const expected = Buffer.from(user.tokenSha256, 'hex');
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
}

const sameCaller = (a: Caller, b: Caller): boolean =>
  a.userId === b.userId && a.workspaceId === b.workspaceId && a.via === b.via;

/**
 * No token, or one the gateway does not accept: 401 (403 for a token short of scopes), with the protected-resource
 * metadata named when the gateway is a resource server, so a client can find where to get a token (RFC 9728).
 */
function unauthorized(
  refusal?: { readonly status: 401 | 403; readonly error: string; readonly description: string },
  resourceServer?: ResourceServer,
): Response {
  const error = refusal?.error ?? 'invalid_token';
  // A header value: no quote, backslash or line break from a claim can end the parameter or the header.
  const description = (refusal?.description ?? 'a bearer token the gateway knows is required').replace(
    /["\\\r\n]/g,
    '',
  );
  const metadata = resourceServer === undefined ? '' : `, resource_metadata="${resourceServer.metadataUrl}"`;
  return Response.json(
    { error, error_description: description },
    {
      status: refusal?.status ?? 401,
      headers: { 'www-authenticate': `Bearer error="${error}", error_description="${description}"${metadata}` },
    },
  );
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
