import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Host, Readiness } from '@airlock/core';
import { createReadinessProbe } from '@airlock/core';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { createGatewayHandler } from './gateway-handler.js';
import type { GatewayUser } from './gateway-handler.js';
import { fetchListener } from './node-fetch-listener.js';
import { createResourceServer } from './oauth-resource-server.js';
import type { GatewayOAuthSettings, ResourceServer } from './oauth-resource-server.js';
import type { GatewaySurface } from './gateway-surface.js';

/** How to start {@link startGatewayHttp}. */
export interface GatewayHttpConfig {
  readonly host: Host;
  /** The surface `host` was created with. */
  readonly surface: GatewaySurface;
  readonly users: readonly GatewayUser[];
  /** Also take bearer JWTs of this authorization server (the gateway as its resource server). */
  readonly oauth?: GatewayOAuthSettings;
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

/**
 * Serves the gateway over Streamable HTTP at `/mcp` on a `node:http` server of its own (see
 * {@link createGatewayHandler} for what each request is checked for). The Host and Origin headers may name loopback
 * or the interface listened on, nothing else.
 */
export async function startGatewayHttp(config: GatewayHttpConfig): Promise<GatewayHttp> {
  const hostname = config.hostname ?? '127.0.0.1';
  const onerror = config.onerror ?? (() => undefined);
  let resourceServer: ResourceServer | undefined;
  const gateway = createGatewayHandler({
    host: config.host,
    surface: config.surface,
    users: config.users,
    resourceServer: () => resourceServer,
    allowedHostnames: [...new Set([...localhostAllowedHostnames(), bracketed(hostname)])],
    ...(config.maxBodyBytes === undefined ? {} : { maxBodyBytes: config.maxBodyBytes }),
    onerror,
  });
  const ready = createReadinessProbe(config.host);
  const handle = (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    // Probes come without a token and name the instance by its own address: answered before any check.
    if (path === '/healthz' || path === '/readyz') return health(path, ready);
    // The protected-resource metadata (RFC 9728) is public too: it is how a client finds where to get a token.
    const metadata = gateway.metadata(path);
    if (metadata !== undefined) return Promise.resolve(metadata);
    return path === '/mcp'
      ? gateway.handle(request)
      : Promise.resolve(
          new Response('Not found: the MCP endpoint is /mcp', {
            status: 404,
            headers: { 'content-type': 'text/plain' },
          }),
        );
  };

  let origin = '';
  const http = createServer(fetchListener(handle, () => origin, onerror));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, hostname, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  origin = `http://${bracketed(hostname)}:${port}`;
  if (config.oauth !== undefined) resourceServer = createResourceServer(config.oauth, `${origin}/mcp`, onerror);
  return {
    url: `${origin}/mcp`,
    sessions: () => gateway.sessions(),
    close: async () => {
      await gateway.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** An IPv6 literal as the Host header carries it. */
function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}

/** `/healthz`: the process serves; `/readyz`: 200 when the host is ready, else 503 naming the reason. */
async function health(path: string, ready: () => Promise<Readiness>): Promise<Response> {
  if (path === '/healthz') return Response.json({ status: 'ok' });
  const readiness = await ready();
  if (readiness.ready) return Response.json({ status: 'ready' });
  return Response.json({ status: 'not_ready', reason: readiness.reason, message: readiness.message }, { status: 503 });
}
