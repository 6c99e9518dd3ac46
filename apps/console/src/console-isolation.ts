import type { ServerConfig } from '@airlock/core';

/**
 * The console's servers as it runs them: a stdio server whose entry does not set `isolation` runs one process per
 * user, since a console serves a team and one shared process can tie a server's question to only one caller at a
 * time (and lets users see each other's state in a stateful server). `shared` set in the config is kept as it is.
 */
export function withConsoleIsolation(servers: readonly ServerConfig[]): ServerConfig[] {
  return servers.map((server) =>
    server.transport === 'stdio' && server.isolation === undefined ? { ...server, isolation: 'user' } : server,
  );
}
