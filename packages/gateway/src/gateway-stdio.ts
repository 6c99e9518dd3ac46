import type { Readable, Writable } from 'node:stream';
import type { Host, Scope } from '@airlock/core';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ExtensionTasks } from './extension-tasks.js';
import { FastToolCalls } from './fast-tool-calls.js';
import { createGatewayServer } from './gateway-server.js';
import type { GatewaySurface } from './gateway-surface.js';
import { LeanStdioTransport } from './lean-stdio-transport.js';
import { ListenedResources } from './listened-resources.js';
import { RoundTrips } from './round-trips.js';
import { WatchedTransport } from './watched-transport.js';

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
  /** Reports errors that change nothing on the wire. */
  readonly onerror?: (error: Error) => void;
}

/** A gateway session on stdio: `closed` settles when the client closes its end (stdin reaches its end). */
export interface GatewayStdio {
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one gateway session over stdio, as a client that starts `airlock gateway` expects: one client, one
 * conversation, for as long as the client keeps stdin open. The client's opening picks the era: `initialize` is a
 * 2025-11-25 session; a `server/discover` probe or a request with the 2026-07-28 envelope is served statelessly, each
 * question of a call coming back as an input-required result. A 2025-11-25 session's plain tool calls take the fast
 * path from the wire ({@link FastToolCalls}); everything else goes through the SDK's serving entry.
 */
export function serveGatewayStdio(options: GatewayStdioOptions): Promise<GatewayStdio> {
  const roundTrips = new RoundTrips();
  const extensionTasks = new ExtensionTasks({ host: options.host, surface: options.surface });
  const listened = new ListenedResources();
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  /** The client's end closing (stdin ends) closes this transport: the session is over, whichever era it was. */
  class SessionTransport extends LeanStdioTransport {
    override async close(): Promise<void> {
      await super.close();
      ended();
    }
  }
  const wire: WatchedTransport = new WatchedTransport(new SessionTransport(options.stdin, options.stdout), {
    inbound: (message) => {
      listened.inbound(message);
      return fastCalls.inbound(message);
    },
    outbound: (message) => listened.outbound(message),
  });
  const fastCalls = new FastToolCalls((message) => wire.send(message));
  const handle = serveStdio(
    ({ era }) => createGatewayServer({ ...options, era, roundTrips, extensionTasks, listened, fastCalls }),
    {
      transport: wire,
      ...(options.onerror === undefined ? {} : { onerror: options.onerror }),
    },
  );
  void closed.then(() => extensionTasks.close());
  return Promise.resolve({ closed, close: () => handle.close() });
}
