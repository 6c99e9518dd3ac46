import type { Readable, Writable } from 'node:stream';
import type { Host, Scope } from '@airlock/core';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createGatewayServer } from './gateway-server.js';
import type { GatewaySurface } from './gateway-surface.js';

/** How to serve one gateway session over stdio. */
export interface GatewayStdioOptions {
  readonly host: Host;
  /** The surface `host` was created with. */
  readonly surface: GatewaySurface;
  /** The session's tenant and its one conversation. */
  readonly scope: Scope;
  /** Default: this process's stdin and stdout (logs belong on stderr). */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

/** A gateway session on stdio: `closed` settles when the client closes its end (stdin reaches its end). */
export interface GatewayStdio {
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one gateway session over stdio, as a client that starts `airlock gateway` expects: one client, one
 * conversation, for as long as the client keeps stdin open.
 */
export async function serveGatewayStdio(options: GatewayStdioOptions): Promise<GatewayStdio> {
  const server = createGatewayServer(options);
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
