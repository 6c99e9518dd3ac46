import { HostError } from '../errors/host-error.js';
import type { HostServers } from '../servers/host-servers.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { ServerInfo } from '../servers/server-info.js';
import type { ServerLogLine } from '../servers/server-log.js';
import type { ToolSwitches } from '../switches/tool-switches.js';

/** `host.servers`: the configured servers, as each tenant sees them, and what an administrator does with them. */
export interface HostServersApi {
  /**
   * Every configured server; with a scope, as that tenant sees it: on a server with a connection per user or
   * workspace, the state of the tenant's own connection (ready, needs sign-in, failed …) once it is open.
   */
  list(options?: { scope?: Scope }): ServerInfo[];
  /** Resolves once every server's first connection attempt has finished (ready or failed). */
  settled(): Promise<void>;
  /** Connects afresh: the server's shared connection, or with a scope that tenant's own (opened if it is not). */
  restart(serverId: string, options?: { scope?: Scope }): Promise<void>;
  /**
   * Switches a server off for everyone (its connections close, its tools leave every listing, a call to one of them
   * is refused naming the server) or on again. An administrator's action, `by` naming them: kept in the store (so it
   * holds after a restart) and audited (`server.switched`). Resolves with false when it was so already. A server
   * `disabled` in the config file can be switched on here until the host restarts.
   */
  setEnabled(serverId: string, options: { enabled: boolean; by: string }): Promise<boolean>;
  /**
   * The newest lines a server wrote to stderr (stdio) or sent as log notifications, oldest first (a bounded ring per
   * connection: 200 lines, 64 KiB); with a scope, of that tenant's own connection where it has one; with `after`,
   * only lines numbered after it. The server's own words, which may hold secrets: show them to administrators only.
   */
  logs(serverId: string, options?: { scope?: Scope; after?: number }): ServerLogLine[];
}

/** The `host.servers` object over the host's servers and switches. */
export function hostServersApi(servers: HostServers, switches: ToolSwitches, settled: Promise<void>): HostServersApi {
  const scoped = (scope: Scope | undefined) => (scope === undefined ? undefined : assertScope(scope));
  return {
    list: (options) => servers.list(scoped(options?.scope)),
    settled: () => settled,
    restart: (serverId, options) => servers.pool(serverId).restart(scoped(options?.scope)),
    setEnabled: async (serverId, { enabled, by }) => {
      if (typeof enabled !== 'boolean') throw new HostError('invalid_arguments', 'enabled must be true or false');
      if (typeof by !== 'string' || by === '') throw new HostError('invalid_arguments', 'by must name who did it');
      servers.pool(serverId); // an unknown server is refused before anything is stored
      await settled;
      const changed = await switches.setServer({ serverId, enabled, by });
      await servers.setEnabled(serverId, enabled);
      return changed;
    },
    logs: (serverId, options) => servers.logs(serverId, scoped(options?.scope), options?.after),
  };
}
