import type { ServerConfig } from '@airlock/core';
import type { LoadedConfig } from './cli-config.js';

/**
 * `airlock config check [FILE]`: the config read as a run would read it (variables expanded, envFile read, inputs
 * declared, names and types checked) without starting a server. An error has already been thrown with its place; on
 * success each server is listed with its id, name, transport and the inputs it needs.
 */
export function configCheck(config: LoadedConfig, stdout: NodeJS.WritableStream): number {
  stdout.write(`${config.source}: ok, ${config.servers.length} server(s)\n`);
  for (const server of config.servers) {
    const name = server.name === undefined ? '' : ` ("${server.name}")`;
    const inputs = server.inputs?.declared.map((d) => d.id) ?? [];
    stdout.write(
      `  ${server.id}${name}: ${transportLabel(server)}${server.disabled ? ', disabled' : ''}` +
        `${inputs.length === 0 ? '' : `, inputs: ${inputs.join(', ')}`}\n`,
    );
  }
  return 0;
}

/** How a server is reached, in a word or three: stdio, http, sse, or http falling back to sse. */
export function transportLabel(server: ServerConfig): string {
  if (server.transport === 'stdio') return 'stdio';
  if (server.httpTransport === 'sse') return 'sse';
  return server.httpTransport === 'streamable' ? 'http' : 'http, falling back to sse';
}
